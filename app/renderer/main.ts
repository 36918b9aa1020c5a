/**
 * The drag-and-drop front end: one page for the browser (served by the server at `/`) and the
 * desktop app (loaded from its embedded server). It only ever talks to the API on its own origin.
 * This file only puts the parts together; each piece of state has one owner: the key and account
 * (Session), the settings form (SettingsForm), the list and selection (QueueView), what was
 * reported (ReportDialog).
 */
import { BRIDGE_GLOBAL, type DesktopBridge } from '../bridge.js';
import { $, Notices } from './dom.js';
import { bindIntake, fromOpened } from './intake.js';
import { Saver } from './save.js';
import { QueueView } from './queue-view.js';
import { ReportDialog } from './report.js';
import { Session } from './session.js';
import { SettingsForm } from './settings-form.js';
import { bindShortcuts, type Commands } from './shortcuts.js';
import { CompareViewer, type CompareMode } from './viewer.js';

/** Jobs brought back after a reload: a day's work for one person, not the account's whole history. */
const RESTORE_LIMIT = 50;
/**
 * The page never runs more jobs at once than this, whatever the plan allows: browsers open six
 * connections per host over HTTP/1.1, and uploads must leave some for polling and downloads.
 */
const MAX_PAGE_ACTIVE_JOBS = 4;

const bridge = (window as unknown as Record<string, DesktopBridge | undefined>)[BRIDGE_GLOBAL];
const notices = new Notices();
const showError = (error: unknown): void => notices.error(error);

const viewer = new CompareViewer({
  stage: $('stage'),
  originalImage: $<HTMLImageElement>('original-image'),
  vectorImage: $<HTMLImageElement>('vector-image'),
  sideOriginal: $('side-original'),
  sideVector: $('side-vector'),
  splitHandle: $('split-handle'),
  empty: $('empty'),
  onZoomChange: (zoom) => {
    $('zoom-level').textContent = `${Math.round(zoom * 100)} %`;
  },
});

const settings = new SettingsForm(() => list.rerunSelected());

const session: Session = new Session({
  bridge,
  onAccount: (account) => {
    settings.applyPlan(account);
    if (account.limits?.active_jobs) list.queue.maxActive = Math.min(MAX_PAGE_ACTIVE_JOBS, account.limits.active_jobs);
  },
  onConnected: async () => {
    try {
      list.restore((await session.client.listJobs({ limit: RESTORE_LIMIT })).jobs);
    } catch (error) {
      showError(error);
    }
  },
  onProblem: (message) => notices.toast(message),
});

const reports = new ReportDialog({ client: session.client, notices });

const list: QueueView = new QueueView({
  client: session.client,
  viewer,
  settings,
  notices,
  onSpent: () => session.refreshAccountSoon(),
  onShow: (item) => reports.update(item),
});

const saver = new Saver({ bridge, toast: (message) => notices.toast(message) });
const open = bindIntake({ bridge, add: (files, skipped) => list.add(files, skipped), onError: showError });

function setMode(mode: CompareMode): void {
  viewer.setMode(mode);
  for (const button of document.querySelectorAll<HTMLButtonElement>('.segmented [data-mode]')) {
    button.setAttribute('aria-checked', String(button.dataset.mode === mode));
  }
}

const commands: Commands = {
  open: () => void open(false).catch(showError),
  'open-folder': () => void open(true).catch(showError),
  save: () => void saver.saveOne(list.selected()).catch(showError),
  'save-all': () => void saver.saveAll(list.queue.items, 'folder').catch(showError),
  'save-all-each': () => void saver.saveAll(list.queue.items, 'each').catch(showError),
  rerun: () => list.rerunSelected(),
  'zoom-in': () => viewer.zoomStep(1),
  'zoom-out': () => viewer.zoomStep(-1),
  'zoom-fit': () => viewer.fit(),
  help: () => $<HTMLDialogElement>('help-dialog').showModal(),
  next: () => list.moveSelection(1),
  previous: () => list.moveSelection(-1),
};

for (const button of document.querySelectorAll<HTMLButtonElement>('.viewer-toolbar [data-mode]')) {
  button.addEventListener('click', () => setMode(button.dataset.mode as CompareMode));
}
$('zoom-in').addEventListener('click', commands['zoom-in']);
$('zoom-out').addEventListener('click', commands['zoom-out']);
$('zoom-fit').addEventListener('click', commands['zoom-fit']);
$('open').addEventListener('click', commands.open);
$('open-folder').addEventListener('click', commands['open-folder']);
$('save').addEventListener('click', commands.save);
$('save-all').addEventListener('click', commands['save-all']);
$('help').addEventListener('click', commands.help);
$('change-key').addEventListener('click', () => void session.changeKey().catch(showError));
// Below 900 px the settings and result panel folds away behind this button instead of vanishing.
$('settings-toggle').addEventListener('click', () => {
  const isOpen = document.body.classList.toggle('settings-open');
  $('settings-toggle').setAttribute('aria-expanded', String(isOpen));
});

bindShortcuts({
  commands,
  actualSize: () => viewer.setZoom(1),
  toggleMode: () => setMode(viewer.mode === 'split' ? 'side' : 'split'),
  removeSelected: () => list.removeSelected(),
  panStage: (dx) => viewer.panBy(dx, 0),
  stage: $('stage'),
});

if (!bridge) $('save-all').title = 'Download all SVGs as one ZIP (Shift+S)';
if (bridge) {
  document.documentElement.dataset.desktop = bridge.platform;
  bridge.onMenuCommand((command) => commands[command]?.());
  bridge.onFilesOpened((files) => list.add(fromOpened(files)));
}

setMode('split');
session.connect().catch(showError);
