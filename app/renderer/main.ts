/**
 * The drag-and-drop front end: one page for the browser (served by the server at `/`) and the
 * desktop app (loaded from its embedded server). It only ever talks to the API on its own origin.
 * In a browser it asks for a key once per tab; in the app the key comes over the preload bridge.
 */
import { HttpClient } from '../../client/http.js';
import { V1Client } from '../../client/v1.js';
import { BRIDGE_GLOBAL, type DesktopBridge, type MenuCommand, type OpenedFile, type SvgFile } from '../bridge.js';
import { describeError, toPlainError } from './errors.js';
import { ACCEPT_ATTRIBUTE, filesFromDataTransfer, filesFromList, svgNameFor, type PickedFile } from './files.js';
import { planSummary } from './plan.js';
import { ConversionQueue, canRerun, describeState, settingsFrom, type QueueItem, type Settings } from './queue.js';
import { formatBytes, formatCount } from './svg-stats.js';
import { CompareViewer, type CompareMode } from './viewer.js';

const KEY_STORAGE = 'vectorize.apiKey';
const MANUAL_PLANS = new Set(['pro', 'studio', 'agency', 'enterprise']);
let planNote = '';

const bridge = (window as unknown as Record<string, DesktopBridge | undefined>)[BRIDGE_GLOBAL];

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`front end markup lacks #${id}`);
  return element as T;
}

// ---------------------------------------------------------------- key and client

let apiKey: string | undefined;
const client = new V1Client(new HttpClient({ baseUrl: location.origin, token: () => apiKey, timeoutMs: 120_000 }));

async function askForKey(message = ''): Promise<string> {
  const dialog = $<HTMLDialogElement>('key-dialog');
  const input = $<HTMLInputElement>('key-input');
  $('key-error').textContent = message;
  input.value = '';
  dialog.showModal();
  return new Promise((resolve) => {
    const onClose = (): void => {
      const value = input.value.trim();
      if (value) {
        dialog.removeEventListener('close', onClose);
        resolve(value);
      } else {
        dialog.showModal();
      }
    };
    dialog.addEventListener('close', onClose);
  });
}

/** Browser: a key kept in sessionStorage for this tab, checked against /v1/account before use. */
async function connect(): Promise<void> {
  if (bridge) {
    apiKey = await bridge.getApiKey();
    await refreshAccount();
    await restoreQueue();
    return;
  }
  $('change-key').hidden = false;
  apiKey = sessionStorage.getItem(KEY_STORAGE) ?? undefined;
  let message = '';
  for (;;) {
    if (!apiKey) apiKey = await askForKey(message);
    try {
      await refreshAccount(true);
      sessionStorage.setItem(KEY_STORAGE, apiKey);
      await restoreQueue();
      return;
    } catch (error) {
      const plain = toPlainError(error);
      if (plain.code !== 'unauthorized' && plain.code !== 'forbidden') {
        // The key may be fine and the server briefly away; keep it and let the queue report errors.
        sessionStorage.setItem(KEY_STORAGE, apiKey);
        toast(describeError(plain));
        return;
      }
      sessionStorage.removeItem(KEY_STORAGE);
      apiKey = undefined;
      message = describeError(plain);
    }
  }
}

async function refreshAccount(rethrow = false): Promise<void> {
  const badge = $('trial');
  try {
    const account = await client.account();
    // Contract §4: below Pro the manual fields are accepted but replaced by their defaults.
    planNote = MANUAL_PLANS.has(account.plan)
      ? ''
      : `On the ${account.plan} plan the server traces with the automatic settings; manual settings take effect on Pro and above.`;
    syncSettingsState();
    if (account.limits?.active_jobs) queue.maxActive = Math.min(4, account.limits.active_jobs);
    const summary = planSummary(account);
    badge.textContent = summary.text;
    badge.title = summary.detail;
    badge.classList.toggle('low', summary.empty);
  } catch (error) {
    if (rethrow) throw error;
  }
}

/**
 * After a reload (or a restart of the app) the conversions already spent are shown again: this
 * key's recent jobs from `GET /v1/jobs`, results downloaded anew, running ones followed.
 */
const RESTORE_LIMIT = 50;
async function restoreQueue(): Promise<void> {
  try {
    const { jobs } = await client.listJobs({ limit: RESTORE_LIMIT });
    const restored = queue.restore(jobs);
    for (const item of restored) renderRow(item);
    if (restored.length > 0 && !selected()) select(restored[restored.length - 1].id);
    updateSummary();
  } catch (error) {
    toast(describeError(toPlainError(error)));
  }
}

// ---------------------------------------------------------------- queue and selection

const originals = new Map<string, { url: string; width: number; height: number; probed: boolean }>();
const vectors = new Map<string, { url: string; svg: string }>();
const rows = new Map<string, HTMLLIElement>();
let selectedId: string | null = null;
let accountTimer: ReturnType<typeof setTimeout> | undefined;

const queue = new ConversionQueue(client, {
  onChange: (item) => {
    renderRow(item);
    if (item.id === selectedId) showSelected(true);
    if (item.state === 'completed' || item.state === 'failed') {
      announce(`${item.name}: ${describeState(item)}`);
    }
    updateSummary();
  },
  onSpent: () => {
    // Coalesce: a dropped folder spends many conversions within a second.
    clearTimeout(accountTimer);
    accountTimer = setTimeout(() => void refreshAccount(), 400);
  },
});

function selected(): QueueItem | undefined {
  return queue.items.find((item) => item.id === selectedId);
}

/** Names what a drop or a pick left out, so no file vanishes without a word. */
function showSkipped(skipped: string[]): void {
  const box = $('skipped');
  box.hidden = skipped.length === 0;
  if (skipped.length === 0) return;
  const shown = skipped.slice(0, 20);
  const one = skipped.length === 1;
  $('skipped-title').textContent = `Skipped ${skipped.length} file${one ? '' : 's'} that ${one ? 'is' : 'are'} not PNG, JPEG, WebP, AVIF or BMP:`;
  const list = $('skipped-list');
  list.replaceChildren(...shown.map((name) => Object.assign(document.createElement('li'), { textContent: name, title: name })));
  if (skipped.length > shown.length) list.append(Object.assign(document.createElement('li'), { textContent: `… and ${skipped.length - shown.length} more` }));
}

function addFiles(files: PickedFile[], skipped: string[] = []): void {
  showSkipped(skipped);
  if (files.length === 0) {
    if (skipped.length === 0) toast('No PNG, JPEG, WebP, AVIF or BMP images in what was dropped.');
    return;
  }
  const added = queue.add(files, readSettings());
  for (const item of added) renderRow(item);
  if (!selected()) select(added[0].id);
  announce(`${added.length} file${added.length === 1 ? '' : 's'} added to the queue`);
  updateSummary();
}

function fromOpened(files: OpenedFile[]): PickedFile[] {
  return files.map((file) => ({
    file: new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }),
    name: file.name,
    path: file.path,
  }));
}

function renderRow(item: QueueItem): void {
  let row = rows.get(item.id);
  if (!row) {
    row = document.createElement('li');
    row.id = `row-${item.id}`;
    row.setAttribute('role', 'option');
    row.dataset.id = item.id;
    const thumb = document.createElement('img');
    thumb.className = 'thumb';
    thumb.alt = '';
    thumb.src = originalFor(item)?.url ?? '';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = item.path;
    name.title = item.path;
    const state = document.createElement('span');
    state.className = 'state';
    const bar = document.createElement('progress');
    bar.max = 100;
    bar.setAttribute('aria-label', `Progress of ${item.name}`);
    row.append(thumb, name, state, bar);
    row.addEventListener('click', () => select(item.id));
    $('queue').append(row);
    rows.set(item.id, row);
  }
  const thumb = row.querySelector('.thumb') as HTMLImageElement;
  if (!item.file && !thumb.getAttribute('src')) thumb.src = vectorFor(item) ?? '';
  row.dataset.state = item.state;
  row.setAttribute('aria-selected', String(item.id === selectedId));
  (row.querySelector('.state') as HTMLElement).textContent = describeState(item);
  const bar = row.querySelector('progress') as HTMLProgressElement;
  bar.value = item.state === 'failed' ? 100 : item.progress;
  bar.setAttribute('aria-valuetext', describeState(item));
}

function originalFor(item: QueueItem): { url: string; width: number; height: number; probed: boolean } | null {
  let original = originals.get(item.id);
  if (!original) {
    if (!item.file) return null;
    original = { url: URL.createObjectURL(item.file), width: 0, height: 0, probed: false };
    originals.set(item.id, original);
    const probe = new Image();
    const entry = original;
    probe.onload = () => {
      entry.width = probe.naturalWidth;
      entry.height = probe.naturalHeight;
      entry.probed = true;
      if (item.id === selectedId) showSelected(false);
    };
    // A file the browser cannot decode still gets its stats and reason shown.
    probe.onerror = () => {
      entry.probed = true;
      if (item.id === selectedId) showSelected(false);
    };
    probe.src = original.url;
  }
  return original;
}

function blobUrlFor(cache: Map<string, { url: string; svg: string }>, id: string, svg: string | undefined): string | null {
  if (!svg) return null;
  const cached = cache.get(id);
  if (cached && cached.svg === svg) return cached.url;
  if (cached) URL.revokeObjectURL(cached.url);
  // Shown through <img>: an SVG there runs no script and loads nothing, whatever it contains.
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  cache.set(id, { url, svg });
  return url;
}

const previousVectors = new Map<string, { url: string; svg: string }>();
const vectorFor = (item: QueueItem): string | null => blobUrlFor(vectors, item.id, item.svg);
const previousFor = (item: QueueItem): string | null => blobUrlFor(previousVectors, item.id, item.previous?.svg);
let comparingPrevious = false;

function select(id: string | null): void {
  const changed = id !== selectedId;
  selectedId = id;
  for (const [rowId, row] of rows) row.setAttribute('aria-selected', String(rowId === id));
  const item = selected();
  if (item) {
    rows.get(item.id)?.scrollIntoView({ block: 'nearest' });
    $('queue').setAttribute('aria-activedescendant', `row-${item.id}`);
    if (changed) writeSettings(item.settings);
  }
  showSelected(!changed);
}

function showSelected(keepView: boolean): void {
  const item = selected();
  $<HTMLButtonElement>('save').disabled = !item?.svg;
  const rerun = $<HTMLButtonElement>('rerun');
  rerun.disabled = !item || !canRerun(item);
  rerun.title = item && !item.file ? 'The page keeps no copy of a file after a reload: open it again to re-run' : 'Re-run with these settings (R)';
  $<HTMLButtonElement>('save-all').disabled = !queue.items.some((entry) => entry.svg);
  const compare = $<HTMLButtonElement>('compare-previous');
  compare.hidden = !item?.previous;
  if (!item?.previous) comparingPrevious = false;
  compare.setAttribute('aria-pressed', String(comparingPrevious));
  if (!item) {
    viewer.show(null, null, 0, 0, false);
    renderStats(undefined);
    return;
  }
  const original = originalFor(item);
  if (original && !original.probed) return; // shown from the probe's onload or onerror
  // Comparing with the previous run puts that SVG where the original is, under the same slider.
  const left = comparingPrevious ? previousFor(item) : (original?.url ?? null);
  for (const label of document.querySelectorAll('.original-label')) label.textContent = comparingPrevious ? 'Previous SVG' : 'Original';
  viewer.show(left, vectorFor(item), original?.width ?? item.width ?? 0, original?.height ?? item.height ?? 0, keepView);
  renderStats(item);
}

function renderStats(item: QueueItem | undefined): void {
  const set = (id: string, text: string): void => {
    $(id).textContent = text;
  };
  set('stat-state', item ? describeState(item) : '—');
  set('stat-mode', item?.mode ?? '—');
  const original = item ? originals.get(item.id) : undefined;
  const width = original?.width || item?.width;
  const size = [item?.file ? formatBytes(item.file.size) : '', width ? `${width}×${original?.height || item?.height}` : ''].filter(Boolean).join(' · ');
  set('stat-original', size || '—');
  set('stat-previous', item?.previous ? `${formatBytes(item.previous.stats.bytes)} · ${formatCount(item.previous.stats.nodes)} nodes` : '—');
  $('stat-previous-row').hidden = !item?.previous;
  set('stat-bytes', item?.stats ? formatBytes(item.stats.bytes) : '—');
  set('stat-paths', item?.stats ? formatCount(item.stats.paths) : '—');
  set('stat-nodes', item?.stats ? formatCount(item.stats.nodes) : '—');
  const info = $('infobar');
  info.textContent = item
    ? [item.path, item.stats ? `${formatBytes(item.stats.bytes)} · ${formatCount(item.stats.nodes)} nodes` : describeState(item)].join(' — ')
    : '';
}

function updateSummary(): void {
  const done = queue.items.filter((item) => item.state === 'completed').length;
  const failed = queue.items.filter((item) => item.state === 'failed').length;
  $('queue-summary').textContent = queue.items.length
    ? `${done}/${queue.items.length} done${failed ? ` · ${failed} failed` : ''}`
    : '';
  $<HTMLButtonElement>('save-all').disabled = done === 0;
}

function moveSelection(step: 1 | -1): void {
  if (queue.items.length === 0) return;
  const index = queue.items.findIndex((item) => item.id === selectedId);
  const next = Math.min(queue.items.length - 1, Math.max(0, index < 0 ? 0 : index + step));
  select(queue.items[next].id);
}

function removeSelected(): void {
  const item = selected();
  if (!item) return;
  const index = queue.items.indexOf(item);
  queue.remove(item);
  rows.get(item.id)?.remove();
  rows.delete(item.id);
  for (const map of [originals, vectors, previousVectors]) {
    const entry = map.get(item.id);
    if (entry) URL.revokeObjectURL(entry.url);
    map.delete(item.id);
  }
  const next = queue.items[Math.min(index, queue.items.length - 1)];
  select(next ? next.id : null);
  updateSummary();
}

// ---------------------------------------------------------------- settings

const form = $<HTMLFormElement>('settings');

function readSettings(): Settings {
  const data = new FormData(form);
  return settingsFrom((name) => data.get(name), data.get('close_seams') === 'on');
}

function writeSettings(settings: Settings): void {
  const elements = form.elements;
  (elements.namedItem('image_type') as HTMLSelectElement).value = settings.image_type;
  (elements.namedItem('gradients') as HTMLSelectElement).value = settings.gradients;
  for (const name of ['detail', 'smoothing', 'trace_style'] as const) {
    for (const input of form.querySelectorAll<HTMLInputElement>(`input[name=${name}]`)) input.checked = input.value === settings[name];
  }
  (elements.namedItem('close_seams') as HTMLInputElement).checked = settings.close_seams;
  syncSettingsState();
}

/** Centerline ignores detail, gradients, smoothing and seams (contract §4); show them as off. */
function syncSettingsState(): void {
  const centerline = readSettings().trace_style === 'centerline';
  for (const field of form.querySelectorAll<HTMLElement>('[data-fill-only]')) {
    field.dataset.disabled = String(centerline);
    for (const control of field.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) control.disabled = centerline;
    if (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) field.disabled = centerline;
  }
  $('settings-hint').textContent = [
    centerline ? 'Centerline traces one stroke per line; detail, smoothing, gradients and seams do not apply.' : 'Settings apply to new files and to re-runs.',
    planNote,
  ]
    .filter(Boolean)
    .join(' ');
}

form.addEventListener('change', syncSettingsState);
form.addEventListener('submit', (event) => {
  event.preventDefault();
  rerunSelected();
});

function rerunSelected(): void {
  const item = selected();
  if (!item || !canRerun(item)) return;
  queue.rerun(item, readSettings());
  announce(`Re-running ${item.name}`);
}

// ---------------------------------------------------------------- save

async function saveSelected(): Promise<void> {
  const item = selected();
  if (!item?.svg) return;
  const file = { name: svgNameFor(item.name), svg: item.svg };
  if (bridge) {
    const result = await bridge.saveSvg(file);
    if (!result.canceled) toast(`Saved ${result.saved[0] ?? file.name}`);
  } else {
    downloadInBrowser(file);
  }
}

async function saveAll(mode: 'folder' | 'each' = 'folder'): Promise<void> {
  const files = queue.items.filter((item) => item.svg).map((item) => ({ name: svgNameFor(item.path.replace(/\//g, '-')), svg: item.svg! }));
  if (files.length === 0) return;
  if (bridge) {
    const result = await bridge.saveAll(files, mode);
    if (!result.canceled) toast(`Saved ${result.saved.length} SVG${result.saved.length === 1 ? '' : 's'}`);
  } else {
    // Browsers ask once whether the page may download several files, then save each one.
    for (const file of files) {
      downloadInBrowser(file);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

function downloadInBrowser(file: SvgFile): void {
  const url = URL.createObjectURL(new Blob([file.svg], { type: 'image/svg+xml' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---------------------------------------------------------------- open and drop

const fileInput = $<HTMLInputElement>('file-input');
const folderInput = $<HTMLInputElement>('folder-input');
fileInput.accept = ACCEPT_ATTRIBUTE;

async function openImages(folder = false): Promise<void> {
  if (bridge) {
    addFiles(fromOpened(await bridge.openImages({ folder })));
  } else {
    (folder ? folderInput : fileInput).click();
  }
}

for (const input of [fileInput, folderInput]) {
  input.addEventListener('change', () => {
    if (input.files?.length) {
      const skipped: string[] = [];
      addFiles(filesFromList(input.files, skipped), skipped);
    }
    input.value = '';
  });
}
// The label opens the browser's picker by itself; in the app the native dialog replaces it.
$('dropzone').addEventListener('click', (event) => {
  if (bridge) {
    event.preventDefault();
    void openImages();
  }
});

let dragDepth = 0;
const overlay = $('drop-overlay');
window.addEventListener('dragenter', (event) => {
  if (!event.dataTransfer?.types.includes('Files')) return;
  event.preventDefault();
  dragDepth += 1;
  overlay.hidden = false;
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) overlay.hidden = true;
});
// Without preventDefault on dragover and drop, a browser (and Electron) navigates to the file.
window.addEventListener('dragover', (event) => {
  event.preventDefault();
  if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
});
window.addEventListener('drop', (event) => {
  event.preventDefault();
  dragDepth = 0;
  overlay.hidden = true;
  const transfer = event.dataTransfer;
  if (!transfer) return;
  const skipped: string[] = [];
  void filesFromDataTransfer(transfer.items, transfer.files, skipped).then(
    (files) => addFiles(files, skipped),
    (error) => toast(describeError(toPlainError(error))),
  );
});

// ---------------------------------------------------------------- viewer

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

function setMode(mode: CompareMode): void {
  viewer.setMode(mode);
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-mode]')) {
    if (button.closest('.segmented')) button.setAttribute('aria-checked', String(button.dataset.mode === mode));
  }
}
for (const button of document.querySelectorAll<HTMLButtonElement>('.viewer-toolbar [data-mode]')) {
  button.addEventListener('click', () => setMode(button.dataset.mode as CompareMode));
}
$('zoom-in').addEventListener('click', () => viewer.zoomStep(1));
$('zoom-out').addEventListener('click', () => viewer.zoomStep(-1));
$('zoom-fit').addEventListener('click', () => viewer.fit());
$('compare-previous').addEventListener('click', () => {
  comparingPrevious = !comparingPrevious;
  showSelected(true);
});
$('skipped-close').addEventListener('click', () => showSkipped([]));
// Below 900 px the settings and result panel folds away behind this button instead of vanishing.
$('settings-toggle').addEventListener('click', () => {
  const open = document.body.classList.toggle('settings-open');
  $('settings-toggle').setAttribute('aria-expanded', String(open));
});

// ---------------------------------------------------------------- commands, keys, chrome

const commands: Record<MenuCommand, () => void> = {
  open: () => void openImages(false),
  'open-folder': () => void openImages(true),
  save: () => void saveSelected().catch(reportError),
  'save-all': () => void saveAll('folder').catch(reportError),
  'save-all-each': () => void saveAll('each').catch(reportError),
  rerun: rerunSelected,
  'zoom-in': () => viewer.zoomStep(1),
  'zoom-out': () => viewer.zoomStep(-1),
  'zoom-fit': () => viewer.fit(),
  help: () => $<HTMLDialogElement>('help-dialog').showModal(),
  next: () => moveSelection(1),
  previous: () => moveSelection(-1),
};

$('open').addEventListener('click', commands.open);
$('open-folder').addEventListener('click', commands['open-folder']);
$('save').addEventListener('click', commands.save);
$('save-all').addEventListener('click', commands['save-all']);
$('help').addEventListener('click', commands.help);
$('change-key').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  apiKey = undefined;
  void connect();
});

const SHORTCUTS: Record<string, () => void> = {
  o: commands.open,
  s: commands.save,
  S: commands['save-all'],
  r: commands.rerun,
  '+': commands['zoom-in'],
  '=': commands['zoom-in'],
  '-': commands['zoom-out'],
  _: commands['zoom-out'],
  '0': commands['zoom-fit'],
  '1': () => viewer.setZoom(1),
  v: () => setMode(viewer.mode === 'split' ? 'side' : 'split'),
  '?': commands.help,
  ArrowDown: commands.next,
  ArrowUp: commands.previous,
  Delete: removeSelected,
  Backspace: removeSelected,
};

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const target = event.target as HTMLElement;
  // Typing in a field or using a dialog must never trigger a shortcut; radios and checkboxes
  // keep their arrows and space, letters still work there.
  if (document.querySelector('dialog[open]') || target.isContentEditable) return;
  if (target.closest('select, textarea, input:not([type=radio]):not([type=checkbox])')) return;
  if (target.matches('input') && (event.key.startsWith('Arrow') || event.key === ' ')) return;
  const action = SHORTCUTS[event.key] ?? SHORTCUTS[event.key.toLowerCase()];
  if (!action) {
    if (event.key.startsWith('Arrow') && document.activeElement === $('stage')) {
      const step = event.shiftKey ? 100 : 20;
      const dx = event.key === 'ArrowLeft' ? step : event.key === 'ArrowRight' ? -step : 0;
      viewer.panBy(dx, 0);
      event.preventDefault();
    }
    return;
  }
  // Shift+S is "save all"; a bare S is "save".
  if (event.key === 'S' && !event.shiftKey) return;
  event.preventDefault();
  action();
});

let toastTimer: ReturnType<typeof setTimeout> | undefined;
function toast(message: string): void {
  const element = $('toast');
  element.textContent = message;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (element.hidden = true), 5_000);
}

function reportError(error: unknown): void {
  toast(describeError(toPlainError(error)));
}

function announce(message: string): void {
  $('announcer').textContent = message;
}

if (bridge) {
  document.documentElement.dataset.desktop = bridge.platform;
  bridge.onMenuCommand((command) => commands[command]?.());
  bridge.onFilesOpened((files) => addFiles(fromOpened(files)));
}

setMode('split');
syncSettingsState();
showSelected(false);
connect().catch(reportError);
