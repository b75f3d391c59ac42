import { useSyncExternalStore } from "react";
import { localStore } from "@/data/localStore.ts";

/**
 * The ways the app can call a player back to a table they are not looking at: a short beep
 * (WebAudio, no files), a vibration, a system notification, the tab's title and icon. The
 * preferences live here, shared by the header's toggles and the table that raises the alert.
 */

const SOUND_KEY = "dicehall.alerts.sound";
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Sound is on unless the player turned it off (remembered on this device). */
export function soundOn(): boolean {
  return localStore()?.getItem(SOUND_KEY) !== "off";
}

export function setSoundOn(on: boolean): void {
  localStore()?.setItem(SOUND_KEY, on ? "on" : "off");
  notify();
}

export function useSoundOn(): boolean {
  return useSyncExternalStore(subscribe, soundOn, () => true);
}

// ------------------------------------------------------------------ notifications

export type NotifyPermission = NotificationPermission | "unsupported";

export function notifyPermission(): NotifyPermission {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

export function useNotifyPermission(): NotifyPermission {
  return useSyncExternalStore(subscribe, notifyPermission, () => "unsupported" as const);
}

/** Asks the browser, from a click (browsers refuse or ignore a request made on load). */
export async function askNotifyPermission(): Promise<NotifyPermission> {
  if (typeof Notification === "undefined") return "unsupported";
  try {
    await Notification.requestPermission();
  } finally {
    notify();
  }
  return Notification.permission;
}

/** A system notification, only while the page is hidden (a visible page speaks for itself). */
export function showNotification(title: string, body: string, tag: string): boolean {
  if (typeof document === "undefined" || !document.hidden) return false;
  if (notifyPermission() !== "granted") return false;
  try {
    const n = new Notification(title, { body, tag, icon: "/favicon.svg" });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    return true;
  } catch {
    // Some mobile browsers only notify through a service worker: the sound and title remain.
    return false;
  }
}

// ------------------------------------------------------------------ sound and vibration

let audio: AudioContext | null = null;

/**
 * Browsers let a page play sound only after the player has interacted with it: the first click
 * anywhere creates (or resumes) the audio context, so the beep is "on by default after the first
 * click".
 */
export function unlockAudioOnFirstClick(): () => void {
  if (typeof window === "undefined" || typeof AudioContext === "undefined") return () => {};
  const unlock = () => {
    try {
      audio ??= new AudioContext();
      if (audio.state === "suspended") void audio.resume();
    } catch {
      return;
    }
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
  return () => {
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
}

/** Two short tones; `urgent` is higher and thrice. Silent before the first click or when off. */
export function beep(urgent = false): boolean {
  if (!audio || audio.state !== "running" || !soundOn()) return false;
  const tones = urgent ? [988, 988, 988] : [660, 880];
  const start = audio.currentTime + 0.01;
  tones.forEach((hz, i) => {
    const osc = audio!.createOscillator();
    const gain = audio!.createGain();
    osc.type = "sine";
    osc.frequency.value = hz;
    const t = start + i * 0.16;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.13);
    osc.connect(gain).connect(audio!.destination);
    osc.start(t);
    osc.stop(t + 0.14);
  });
  return true;
}

/** A buzz on phones that have one (and browsers that allow it). */
export function vibrate(urgent = false): void {
  if (typeof navigator === "undefined" || typeof navigator.vibrate !== "function") return;
  try {
    navigator.vibrate(urgent ? [120, 80, 120, 80, 120] : [200, 100, 200]);
  } catch {
    // A browser may refuse without a recent tap: nothing to do.
  }
}

// ------------------------------------------------------------------ the tab

/** The tab's icon while a move waits: the brand's die on a bright disc, drawn inline. */
export const ALERT_FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
      '<circle cx="32" cy="32" r="31" fill="#e8590c"/>' +
      '<rect x="14" y="14" width="36" height="36" rx="8" fill="#fff"/>' +
      '<circle cx="24" cy="24" r="4.5" fill="#e8590c"/><circle cx="40" cy="40" r="4.5" fill="#e8590c"/>' +
      '<circle cx="32" cy="32" r="4.5" fill="#e8590c"/></svg>',
  );

/** The tab's title with the alert in front: "(!) Your turn · Dicehall". */
export const alertTitle = (what: string, base: string): string => `(!) ${what} · ${base}`;

/** Shows `what` in the tab (title and icon) until the returned function puts them back. */
export function markTab(what: string): () => void {
  const base = document.title;
  const icon = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
  const href = icon?.getAttribute("href") ?? null;
  document.title = alertTitle(what, base);
  icon?.setAttribute("href", ALERT_FAVICON);
  return () => {
    document.title = base;
    if (icon && href !== null) icon.setAttribute("href", href);
  };
}
