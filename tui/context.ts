/**
 * What every screen shares: the admin client, the terminal area it may draw in, and the chrome
 * (footer hints, keyboard capture) it registers with the app shell.
 */
import { createContext } from 'react';
import type { AdminApi } from '../client/admin.js';

export const AdminApiContext = createContext<AdminApi | null>(null);

export interface KeyHint {
  keys: string;
  label: string;
}

export interface HintLayer {
  hints: KeyHint[];
  /** While true the app shell ignores its global keys (1-5, Tab, q), so a text prompt gets them. */
  captureText: boolean;
}

export interface Chrome {
  pushLayer(layer: HintLayer): () => void;
}

export const ChromeContext = createContext<Chrome>({ pushLayer: () => () => undefined });

/** Columns and rows a screen's body may use (the shell's header, tabs and footer are outside). */
interface BodyArea {
  width: number;
  height: number;
}

export const BodyAreaContext = createContext<BodyArea>({ width: 80, height: 18 });
