/**
 * Keyboard shortcuts (listed in the help dialog). They never fire while the person types in a
 * field or a dialog is open; radios and checkboxes keep their arrows and space.
 */
import type { MenuCommand } from '../bridge.js';

export type Commands = Record<MenuCommand, () => void>;

interface ShortcutActions {
  commands: Commands;
  actualSize: () => void;
  toggleMode: () => void;
  removeSelected: () => void;
  /** Arrow keys on the focused stage pan the view. */
  panStage: (dx: number) => void;
  stage: HTMLElement;
}

/** Arrow-key pan steps in CSS pixels; Shift moves further. */
const PAN_STEP = 20;
const PAN_STEP_LARGE = 100;

export function bindShortcuts(actions: ShortcutActions): void {
  const { commands } = actions;
  const shortcuts: Record<string, () => void> = {
    o: commands.open,
    s: commands.save,
    S: commands['save-all'],
    r: commands.rerun,
    '+': commands['zoom-in'],
    '=': commands['zoom-in'],
    '-': commands['zoom-out'],
    _: commands['zoom-out'],
    '0': commands['zoom-fit'],
    '1': actions.actualSize,
    v: actions.toggleMode,
    '?': commands.help,
    ArrowDown: commands.next,
    ArrowUp: commands.previous,
    Delete: actions.removeSelected,
    Backspace: actions.removeSelected,
  };

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    if (document.querySelector('dialog[open]') || target.isContentEditable) return;
    if (target.closest('select, textarea, input:not([type=radio]):not([type=checkbox])')) return;
    if (target.matches('input') && (event.key.startsWith('Arrow') || event.key === ' ')) return;
    const action = shortcuts[event.key] ?? shortcuts[event.key.toLowerCase()];
    if (!action) {
      if (event.key.startsWith('Arrow') && document.activeElement === actions.stage) {
        const step = event.shiftKey ? PAN_STEP_LARGE : PAN_STEP;
        const dx = event.key === 'ArrowLeft' ? step : event.key === 'ArrowRight' ? -step : 0;
        actions.panStage(dx);
        event.preventDefault();
      }
      return;
    }
    // Shift+S is "save all"; a bare S is "save".
    if (event.key === 'S' && !event.shiftKey) return;
    event.preventDefault();
    action();
  });
}
