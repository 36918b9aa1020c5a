/**
 * The settings form: reads the settings new files and re-runs use, shows an item's own settings
 * when it is selected, and says which settings do not apply (centerline, a plan below Pro).
 */
import type { Account } from '../../client/v1.js';
import { $ } from './dom.js';
import { settingsFrom, type Settings } from './queue.js';

export class SettingsForm {
  private readonly form = $<HTMLFormElement>('settings');
  private planNote = '';

  constructor(onSubmit: () => void) {
    this.form.addEventListener('change', () => this.sync());
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      onSubmit();
    });
    this.sync();
  }

  applyPlan(account: Account): void {
    // Below Pro the manual fields are accepted but replaced by their defaults (docs/api.md, "Plans").
    this.planNote = account.limits?.manual_settings
      ? ''
      : `On the ${account.plan} plan the server traces with the automatic settings and draws the SVG as traced; ` +
        'manual settings and the output controls take effect on Pro and above.';
    this.sync();
  }

  read(): Settings {
    const data = new FormData(this.form);
    // "Remove a colour" sends the picked colour itself as the background field.
    const read = (name: string) => (name === 'background' && data.get(name) === 'colour' ? data.get('background_colour') : data.get(name));
    return settingsFrom(read, data.get('close_seams') === 'on');
  }

  write(settings: Settings): void {
    const { form } = this;
    const elements = form.elements;
    (elements.namedItem('image_type') as HTMLSelectElement).value = settings.image_type;
    (elements.namedItem('gradients') as HTMLSelectElement).value = settings.gradients;
    for (const name of ['detail', 'smoothing', 'trace_style'] as const) {
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name=${name}]`)) input.checked = input.value === settings[name];
    }
    (elements.namedItem('close_seams') as HTMLInputElement).checked = settings.close_seams;
    const background = settings.background ?? 'keep';
    (elements.namedItem('background') as HTMLSelectElement).value = background.startsWith('#') ? 'colour' : background;
    if (background.startsWith('#')) (elements.namedItem('background_colour') as HTMLInputElement).value = background;
    for (const name of ['max_colors', 'palette', 'width', 'height'] as const)
      (elements.namedItem(name) as HTMLInputElement).value = settings[name] === undefined ? '' : String(settings[name]);
    (elements.namedItem('unit') as HTMLSelectElement).value = settings.unit ?? 'px';
    (elements.namedItem('dpi') as HTMLInputElement).value = String(settings.dpi ?? 96);
    (elements.namedItem('group_by') as HTMLInputElement).checked = settings.group_by === 'color';
    (elements.namedItem('stroke_order') as HTMLInputElement).checked = settings.stroke_order === 'plotter';
    this.sync();
  }

  /** Centerline ignores detail, gradients, smoothing and seams (docs/api.md, "Submitting"); show them as off. */
  private sync(): void {
    const centerline = this.read().trace_style === 'centerline';
    for (const field of this.form.querySelectorAll<HTMLElement>('[data-fill-only]')) {
      field.dataset.disabled = String(centerline);
      for (const control of field.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) control.disabled = centerline;
      if (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) field.disabled = centerline;
    }
    for (const field of this.form.querySelectorAll<HTMLElement>('[data-centerline-only]')) {
      field.dataset.disabled = String(!centerline);
      for (const control of field.querySelectorAll<HTMLInputElement>('input')) control.disabled = !centerline;
    }
    $('background-colour-field').hidden = (this.form.elements.namedItem('background') as HTMLSelectElement).value !== 'colour';
    $('settings-hint').textContent = [
      centerline
        ? 'Centerline traces one stroke per line; detail, smoothing, gradients and seams do not apply.'
        : 'Settings apply to new files and to re-runs; a re-run that changes only the output is drawn again without tracing.',
      this.planNote,
    ]
      .filter(Boolean)
      .join(' ');
  }
}
