/**
 * The file list and what the selected file shows: the rows, the selection, the compare view and the
 * result numbers. It owns the conversion queue and every object URL the page makes for it, so a
 * removed file gives its memory back in one place.
 */
import type { Job, V1Client } from '../../client/v1.js';
import { $, type Notices } from './dom.js';
import type { PickedFile } from './files.js';
import { ConversionQueue, canRerun, describeState, type QueueItem } from './queue.js';
import type { SettingsForm } from './settings-form.js';
import { formatBytes, formatCount } from './svg-stats.js';
import type { CompareViewer } from './viewer.js';

interface Original {
  url: string;
  width: number;
  height: number;
  probed: boolean;
}

interface SvgUrl {
  url: string;
  svg: string;
}

/** Names shown in the skipped box; the rest are counted. */
const SKIPPED_SHOWN = 20;

interface QueueViewOptions {
  client: V1Client;
  viewer: CompareViewer;
  settings: SettingsForm;
  notices: Notices;
  /** A conversion was spent on the server: the account's numbers changed. */
  onSpent: () => void;
  /** The selected item, or its state, changed. */
  onShow: (item: QueueItem | undefined) => void;
}

export class QueueView {
  readonly queue: ConversionQueue;
  private readonly viewer: CompareViewer;
  private readonly settings: SettingsForm;
  private readonly notices: Notices;
  private readonly onShow: (item: QueueItem | undefined) => void;
  private readonly rows = new Map<string, HTMLLIElement>();
  private readonly originals = new Map<string, Original>();
  private readonly vectors = new Map<string, SvgUrl>();
  private readonly previousVectors = new Map<string, SvgUrl>();
  private selectedId: string | null = null;
  private comparingPrevious = false;

  constructor(options: QueueViewOptions) {
    this.viewer = options.viewer;
    this.settings = options.settings;
    this.notices = options.notices;
    this.onShow = options.onShow;
    this.queue = new ConversionQueue(options.client, {
      onChange: (item) => {
        this.renderRow(item);
        if (item.id === this.selectedId) this.showSelected(true);
        if (item.state === 'completed' || item.state === 'failed') this.notices.announce(`${item.name}: ${describeState(item)}`);
        this.updateSummary();
      },
      onSpent: options.onSpent,
    });
    $('compare-previous').addEventListener('click', () => {
      this.comparingPrevious = !this.comparingPrevious;
      this.showSelected(true);
    });
    $('skipped-close').addEventListener('click', () => this.showSkipped([]));
    this.showSelected(false);
  }

  selected(): QueueItem | undefined {
    return this.queue.items.find((item) => item.id === this.selectedId);
  }

  /** Items with a result, in list order. */
  results(): QueueItem[] {
    return this.queue.items.filter((item) => item.svg);
  }

  add(files: PickedFile[], skipped: string[] = []): void {
    this.showSkipped(skipped);
    if (files.length === 0) {
      if (skipped.length === 0) this.notices.toast('No PNG, JPEG, WebP, AVIF or BMP images in what was dropped.');
      return;
    }
    const added = this.queue.add(files, this.settings.read());
    for (const item of added) this.renderRow(item);
    if (!this.selected()) this.select(added[0].id);
    this.notices.announce(`${added.length} file${added.length === 1 ? '' : 's'} added to the queue`);
    this.updateSummary();
  }

  /** This key's jobs from the server, after a reload: results shown again, running ones followed. */
  restore(jobs: Job[]): void {
    const restored = this.queue.restore(jobs);
    for (const item of restored) this.renderRow(item);
    if (restored.length > 0 && !this.selected()) this.select(restored[restored.length - 1].id);
    this.updateSummary();
  }

  rerunSelected(): void {
    const item = this.selected();
    if (!item || !canRerun(item)) return;
    this.queue.rerun(item, this.settings.read());
    this.notices.announce(`Re-running ${item.name}`);
  }

  moveSelection(step: 1 | -1): void {
    const { items } = this.queue;
    if (items.length === 0) return;
    const index = items.findIndex((item) => item.id === this.selectedId);
    const next = Math.min(items.length - 1, Math.max(0, index < 0 ? 0 : index + step));
    this.select(items[next].id);
  }

  removeSelected(): void {
    const item = this.selected();
    if (!item) return;
    const index = this.queue.items.indexOf(item);
    this.queue.remove(item);
    this.rows.get(item.id)?.remove();
    this.rows.delete(item.id);
    for (const map of [this.originals, this.vectors, this.previousVectors]) {
      const entry = map.get(item.id);
      if (entry) URL.revokeObjectURL(entry.url);
      map.delete(item.id);
    }
    const next = this.queue.items[Math.min(index, this.queue.items.length - 1)];
    this.select(next ? next.id : null);
    this.updateSummary();
  }

  /** Names what a drop or a pick left out, so no file vanishes without a word. */
  private showSkipped(skipped: string[]): void {
    const box = $('skipped');
    box.hidden = skipped.length === 0;
    if (skipped.length === 0) return;
    const shown = skipped.slice(0, SKIPPED_SHOWN);
    $('skipped-title').textContent =
      `Skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} that ` +
      `${skipped.length === 1 ? 'is' : 'are'} not PNG, JPEG, WebP, AVIF or BMP:`;
    const list = $('skipped-list');
    list.replaceChildren(...shown.map((name) => Object.assign(document.createElement('li'), { textContent: name, title: name })));
    if (skipped.length > shown.length)
      list.append(Object.assign(document.createElement('li'), { textContent: `… and ${skipped.length - shown.length} more` }));
  }

  private select(id: string | null): void {
    const changed = id !== this.selectedId;
    this.selectedId = id;
    for (const [rowId, row] of this.rows) row.setAttribute('aria-selected', String(rowId === id));
    const item = this.selected();
    if (item) {
      this.rows.get(item.id)?.scrollIntoView({ block: 'nearest' });
      $('queue').setAttribute('aria-activedescendant', `row-${item.id}`);
      if (changed) this.settings.write(item.settings);
    }
    this.showSelected(!changed);
  }

  private renderRow(item: QueueItem): void {
    let row = this.rows.get(item.id);
    if (!row) {
      row = document.createElement('li');
      row.id = `row-${item.id}`;
      row.setAttribute('role', 'option');
      row.dataset.id = item.id;
      const thumb = document.createElement('img');
      thumb.className = 'thumb';
      thumb.alt = '';
      thumb.src = this.originalFor(item)?.url ?? '';
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
      row.addEventListener('click', () => this.select(item.id));
      $('queue').append(row);
      this.rows.set(item.id, row);
    }
    const thumb = row.querySelector('.thumb') as HTMLImageElement;
    if (!item.file && !thumb.getAttribute('src')) thumb.src = this.vectorFor(item) ?? '';
    row.dataset.state = item.state;
    row.setAttribute('aria-selected', String(item.id === this.selectedId));
    (row.querySelector('.state') as HTMLElement).textContent = describeState(item);
    const bar = row.querySelector('progress') as HTMLProgressElement;
    bar.value = item.state === 'failed' ? 100 : item.progress;
    bar.setAttribute('aria-valuetext', describeState(item));
  }

  private originalFor(item: QueueItem): Original | null {
    let original = this.originals.get(item.id);
    if (!original) {
      if (!item.file) return null;
      original = { url: URL.createObjectURL(item.file), width: 0, height: 0, probed: false };
      this.originals.set(item.id, original);
      const probe = new Image();
      const entry = original;
      probe.onload = () => {
        entry.width = probe.naturalWidth;
        entry.height = probe.naturalHeight;
        entry.probed = true;
        if (item.id === this.selectedId) this.showSelected(false);
      };
      // A file the browser cannot decode still gets its stats and reason shown.
      probe.onerror = () => {
        entry.probed = true;
        if (item.id === this.selectedId) this.showSelected(false);
      };
      probe.src = original.url;
    }
    return original;
  }

  private vectorFor(item: QueueItem): string | null {
    return blobUrlFor(this.vectors, item.id, item.svg);
  }

  private previousFor(item: QueueItem): string | null {
    return blobUrlFor(this.previousVectors, item.id, item.previous?.svg);
  }

  private showSelected(keepView: boolean): void {
    const item = this.selected();
    $<HTMLButtonElement>('save').disabled = !item?.svg;
    const rerun = $<HTMLButtonElement>('rerun');
    rerun.disabled = !item || !canRerun(item);
    rerun.title =
      item && !item.file ? 'The page keeps no copy of a file after a reload: open it again to re-run' : 'Re-run with these settings (R)';
    $<HTMLButtonElement>('save-all').disabled = this.results().length === 0;
    this.onShow(item);
    const compare = $<HTMLButtonElement>('compare-previous');
    compare.hidden = !item?.previous;
    if (!item?.previous) this.comparingPrevious = false;
    compare.setAttribute('aria-pressed', String(this.comparingPrevious));
    if (!item) {
      this.viewer.show(null, null, 0, 0, false);
      this.renderStats(undefined);
      return;
    }
    const original = this.originalFor(item);
    this.renderStats(item);
    // The picture waits for the probe's onload or onerror, which shows it with its pixel size.
    if (original && !original.probed) return;
    // Comparing with the previous run puts that SVG where the original is, under the same slider.
    const left = this.comparingPrevious ? this.previousFor(item) : (original?.url ?? null);
    for (const label of document.querySelectorAll('.original-label'))
      label.textContent = this.comparingPrevious ? 'Previous SVG' : 'Original';
    this.viewer.show(left, this.vectorFor(item), original?.width ?? item.width ?? 0, original?.height ?? item.height ?? 0, keepView);
  }

  private renderStats(item: QueueItem | undefined): void {
    const set = (id: string, text: string): void => {
      $(id).textContent = text;
    };
    set('stat-state', item ? describeState(item) : '—');
    set('stat-mode', item?.mode ?? '—');
    const original = item ? this.originals.get(item.id) : undefined;
    const width = original?.width || item?.width;
    const size = [item?.file ? formatBytes(item.file.size) : '', width ? `${width}×${original?.height || item?.height}` : '']
      .filter(Boolean)
      .join(' · ');
    set('stat-original', size || '—');
    set(
      'stat-previous',
      item?.previous ? `${formatBytes(item.previous.stats.bytes)} · ${formatCount(item.previous.stats.nodes)} nodes` : '—',
    );
    $('stat-previous-row').hidden = !item?.previous;
    set('stat-bytes', item?.stats ? formatBytes(item.stats.bytes) : '—');
    set('stat-paths', item?.stats ? formatCount(item.stats.paths) : '—');
    set('stat-nodes', item?.stats ? formatCount(item.stats.nodes) : '—');
    $('infobar').textContent = item
      ? [item.path, item.stats ? `${formatBytes(item.stats.bytes)} · ${formatCount(item.stats.nodes)} nodes` : describeState(item)].join(
          ' — ',
        )
      : '';
  }

  private updateSummary(): void {
    const { items } = this.queue;
    const done = items.filter((item) => item.state === 'completed').length;
    const failed = items.filter((item) => item.state === 'failed').length;
    $('queue-summary').textContent = items.length ? `${done}/${items.length} done${failed ? ` · ${failed} failed` : ''}` : '';
    $<HTMLButtonElement>('save-all').disabled = this.results().length === 0;
  }
}

function blobUrlFor(cache: Map<string, SvgUrl>, id: string, svg: string | undefined): string | null {
  if (!svg) return null;
  const cached = cache.get(id);
  if (cached && cached.svg === svg) return cached.url;
  if (cached) URL.revokeObjectURL(cached.url);
  // Shown through <img>: an SVG there runs no script and loads nothing, whatever it contains.
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  cache.set(id, { url, svg });
  return url;
}
