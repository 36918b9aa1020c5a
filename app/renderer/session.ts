/**
 * The key and the account: the only owner of the API key the page calls with. In a browser the key
 * is asked for once per tab (kept in sessionStorage, checked against /v1/account before use); in
 * the desktop app it comes over the preload bridge. Each fresh account goes to `onAccount`.
 */
import { HttpClient } from '../../client/http.js';
import { V1Client, type Account } from '../../client/v1.js';
import type { DesktopBridge } from '../bridge.js';
import { $ } from './dom.js';
import { describeError, toPlainError } from './errors.js';
import { planSummary } from './plan.js';

const KEY_STORAGE = 'vectorize.apiKey';
/** A long photo job is polled, not held open; two minutes covers the slowest single request (an upload). */
const REQUEST_TIMEOUT_MS = 120_000;
/** A dropped folder spends many conversions within a second: one account refresh for them all. */
const ACCOUNT_REFRESH_DELAY_MS = 400;

interface SessionOptions {
  bridge: DesktopBridge | undefined;
  onAccount: (account: Account) => void;
  /** Called once the key is known good (or the server could not say): restore what it already spent. */
  onConnected: () => Promise<void>;
  onProblem: (message: string) => void;
}

export class Session {
  readonly client: V1Client;
  private apiKey: string | undefined;
  private readonly options: SessionOptions;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SessionOptions) {
    this.options = options;
    this.client = new V1Client(new HttpClient({ baseUrl: location.origin, token: () => this.apiKey, timeoutMs: REQUEST_TIMEOUT_MS }));
  }

  async connect(): Promise<void> {
    const { bridge } = this.options;
    if (bridge) {
      this.apiKey = await bridge.getApiKey();
      await this.refreshAccount();
      await this.options.onConnected();
      return;
    }
    $('change-key').hidden = false;
    this.apiKey = sessionStorage.getItem(KEY_STORAGE) ?? undefined;
    let message = '';
    for (;;) {
      if (!this.apiKey) this.apiKey = await askForKey(message);
      try {
        await this.refreshAccount(true);
        sessionStorage.setItem(KEY_STORAGE, this.apiKey);
        await this.options.onConnected();
        return;
      } catch (error) {
        const plain = toPlainError(error);
        if (plain.code !== 'unauthorized' && plain.code !== 'forbidden') {
          // The key may be fine and the server briefly away; keep it and let the queue report errors.
          sessionStorage.setItem(KEY_STORAGE, this.apiKey);
          this.options.onProblem(describeError(plain));
          return;
        }
        sessionStorage.removeItem(KEY_STORAGE);
        this.apiKey = undefined;
        message = describeError(plain);
      }
    }
  }

  /** Forgets this tab's key and asks for another. */
  changeKey(): Promise<void> {
    sessionStorage.removeItem(KEY_STORAGE);
    this.apiKey = undefined;
    return this.connect();
  }

  /** After a conversion was spent: the badge catches up once the burst is over. */
  refreshAccountSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refreshAccount(), ACCOUNT_REFRESH_DELAY_MS);
  }

  /** Reads the account and shows the plan badge. */
  async refreshAccount(rethrow = false): Promise<void> {
    const badge = $('trial');
    try {
      const account = await this.client.account();
      this.options.onAccount(account);
      const summary = planSummary(account);
      badge.textContent = summary.text;
      badge.title = summary.detail;
      badge.classList.toggle('low', summary.empty);
    } catch (error) {
      if (rethrow) throw error;
    }
  }
}

async function askForKey(message: string): Promise<string> {
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
