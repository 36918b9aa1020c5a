/**
 * The compare view: original and SVG side by side or under a split slider, zoom up to 800 % and
 * pan. Zoom changes the images' layout size, never a CSS scale of a bitmap, so the browser redraws
 * the SVG from its vectors at every step and edges stay crisp at 800 %; the original is drawn with
 * visible pixels past 200 % so a designer can see what the tracer had to work with.
 */
export type CompareMode = 'split' | 'side';

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 8;
/** The steps + and − walk through; percentages a designer expects from other tools. */
const ZOOM_STEPS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8];

export function nextZoom(current: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((step) => step > current + 1e-6) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((step) => step < current - 1e-6) ?? MIN_ZOOM;
}

export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Zoom that fits an image of w×h in a pane, never enlarging past 100 % (a 16 px icon stays honest). */
export function fitZoom(imageW: number, imageH: number, paneW: number, paneH: number, margin = 24): number {
  if (imageW <= 0 || imageH <= 0 || paneW <= 0 || paneH <= 0) return 1;
  return clampZoom(Math.min(1, (paneW - margin * 2) / imageW, (paneH - margin * 2) / imageH));
}

interface Pane {
  root: HTMLElement;
  content: HTMLElement;
  original: HTMLImageElement;
  vector: HTMLImageElement;
}

interface ViewerElements {
  stage: HTMLElement;
  originalImage: HTMLImageElement;
  vectorImage: HTMLImageElement;
  /** Second pair used in side-by-side mode. */
  sideOriginal: HTMLElement;
  sideVector: HTMLElement;
  splitHandle: HTMLElement;
  empty: HTMLElement;
  onZoomChange: (zoom: number) => void;
}

export class CompareViewer {
  mode: CompareMode = 'split';
  zoom = 1;
  /** Image-space point shown at the pane centre; keeps the same spot under the eye across zooms. */
  private centerX = 0;
  private centerY = 0;
  private imageW = 0;
  private imageH = 0;
  /** 0–1 across the stage: left of it the original, right of it the SVG. */
  split = 0.5;
  private readonly el: ViewerElements;
  private readonly splitPane: Pane;
  private readonly leftPane: Pane;
  private readonly rightPane: Pane;

  constructor(elements: ViewerElements) {
    this.el = elements;
    this.splitPane = this.makePane(
      elements.stage.querySelector('[data-pane=split]') as HTMLElement,
      elements.originalImage,
      elements.vectorImage,
    );
    this.leftPane = this.makePane(elements.sideOriginal, null, null);
    this.rightPane = this.makePane(elements.sideVector, null, null);
    this.bindPointer();
    new ResizeObserver(() => this.layout()).observe(elements.stage);
  }

  private makePane(root: HTMLElement, original: HTMLImageElement | null, vector: HTMLImageElement | null): Pane {
    const content = root.querySelector('.pane-content') as HTMLElement;
    return {
      root,
      content,
      original: original ?? (content.querySelector('img.original') as HTMLImageElement),
      vector: vector ?? (content.querySelector('img.vector') as HTMLImageElement),
    };
  }

  /** Shows a pair; a null vector means "not converted yet" and shows the original alone. */
  show(originalUrl: string | null, vectorUrl: string | null, width: number, height: number, keepView: boolean): void {
    const sameSize = width === this.imageW && height === this.imageH;
    this.imageW = width;
    this.imageH = height;
    for (const pane of [this.splitPane, this.leftPane, this.rightPane]) {
      setSource(pane.original, originalUrl);
      setSource(pane.vector, vectorUrl);
    }
    // A job restored after a reload has its SVG but no original in the page.
    this.el.empty.hidden = originalUrl !== null || vectorUrl !== null;
    this.el.stage.classList.toggle('has-vector', vectorUrl !== null);
    // Nothing to compare with: the SVG fills the pane, no slider.
    this.el.stage.classList.toggle('vector-only', originalUrl === null && vectorUrl !== null);
    if (!keepView || !sameSize) this.fit();
    else this.layout();
  }

  setMode(mode: CompareMode): void {
    this.mode = mode;
    this.el.stage.dataset.mode = mode;
    this.layout();
  }

  setSplit(fraction: number): void {
    this.split = Math.min(1, Math.max(0, fraction));
    this.el.splitHandle.setAttribute('aria-valuenow', String(Math.round(this.split * 100)));
    this.layout();
  }

  fit(): void {
    const pane = this.activePanes()[0].root;
    this.centerX = this.imageW / 2;
    this.centerY = this.imageH / 2;
    this.setZoom(fitZoom(this.imageW, this.imageH, pane.clientWidth, pane.clientHeight));
  }

  /** Zooms keeping the image point under (clientX, clientY) in place; the pane centre when omitted. */
  setZoom(zoom: number, anchor?: { clientX: number; clientY: number; pane: HTMLElement }): void {
    const next = clampZoom(zoom);
    if (anchor) {
      const rect = anchor.pane.getBoundingClientRect();
      const dx = anchor.clientX - (rect.left + rect.width / 2);
      const dy = anchor.clientY - (rect.top + rect.height / 2);
      // Image point under the cursor stays under the cursor: solve for the new centre.
      this.centerX += dx / this.zoom - dx / next;
      this.centerY += dy / this.zoom - dy / next;
    }
    this.zoom = next;
    this.layout();
    this.el.onZoomChange(this.zoom);
  }

  zoomStep(direction: 1 | -1): void {
    this.setZoom(nextZoom(this.zoom, direction));
  }

  panBy(dxScreen: number, dyScreen: number): void {
    this.centerX -= dxScreen / this.zoom;
    this.centerY -= dyScreen / this.zoom;
    this.layout();
  }

  private activePanes(): Pane[] {
    return this.mode === 'split' ? [this.splitPane] : [this.leftPane, this.rightPane];
  }

  layout(): void {
    const w = this.imageW * this.zoom;
    const h = this.imageH * this.zoom;
    // Past 200 % the original shows its pixels as squares instead of a blur.
    this.el.stage.classList.toggle('pixelated', this.zoom >= 2);
    for (const pane of this.activePanes()) {
      const left = pane.root.clientWidth / 2 - this.centerX * this.zoom;
      const top = pane.root.clientHeight / 2 - this.centerY * this.zoom;
      pane.content.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      for (const img of [pane.original, pane.vector]) {
        img.style.width = `${w}px`;
        img.style.height = `${h}px`;
      }
    }
    if (this.mode === 'split') {
      const pane = this.splitPane.root;
      const cut = Math.round(pane.clientWidth * this.split);
      const vectorOnly = this.el.stage.classList.contains('vector-only');
      this.splitPane.vector.style.clipPath = vectorOnly
        ? 'none'
        : `inset(0 0 0 ${Math.max(0, cut - (pane.clientWidth / 2 - this.centerX * this.zoom))}px)`;
      this.el.splitHandle.style.left = `${cut}px`;
    }
  }

  private bindPointer(): void {
    const stage = this.el.stage;
    let drag: { x: number; y: number; id: number; kind: 'pan' | 'split' } | null = null;
    stage.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || this.el.empty.hidden === false) return;
      const kind = event.target === this.el.splitHandle || this.el.splitHandle.contains(event.target as Node) ? 'split' : 'pan';
      drag = { x: event.clientX, y: event.clientY, id: event.pointerId, kind };
      stage.setPointerCapture(event.pointerId);
      stage.classList.add(kind === 'pan' ? 'panning' : 'splitting');
    });
    stage.addEventListener('pointermove', (event) => {
      if (!drag || drag.id !== event.pointerId) return;
      if (drag.kind === 'split') {
        const rect = this.splitPane.root.getBoundingClientRect();
        this.setSplit((event.clientX - rect.left) / rect.width);
      } else {
        this.panBy(event.clientX - drag.x, event.clientY - drag.y);
      }
      drag.x = event.clientX;
      drag.y = event.clientY;
    });
    const end = (event: PointerEvent): void => {
      if (!drag || drag.id !== event.pointerId) return;
      drag = null;
      stage.classList.remove('panning', 'splitting');
    };
    stage.addEventListener('pointerup', end);
    stage.addEventListener('pointercancel', end);
    stage.addEventListener(
      'wheel',
      (event) => {
        if (this.el.empty.hidden === false) return;
        event.preventDefault();
        const pane = (event.target as HTMLElement).closest('.pane') as HTMLElement | null;
        if (event.ctrlKey || event.metaKey || !event.shiftKey) {
          // Trackpad pinch arrives as ctrl+wheel with small deltas; a mouse wheel notch as ~100.
          const factor = Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.0015));
          this.setZoom(this.zoom * factor, pane ? { clientX: event.clientX, clientY: event.clientY, pane } : undefined);
        } else {
          this.panBy(-event.deltaY, 0);
        }
      },
      { passive: false },
    );
    this.el.splitHandle.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        event.stopPropagation();
        this.setSplit(this.split + (event.key === 'ArrowLeft' ? -0.05 : 0.05));
      }
    });
  }
}

function setSource(img: HTMLImageElement, url: string | null): void {
  if (url === null) {
    img.removeAttribute('src');
    img.hidden = true;
  } else {
    if (img.getAttribute('src') !== url) img.src = url;
    img.hidden = false;
  }
}
