// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALERT_FAVICON, markTab, showNotification } from "./alerts.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = "";
});

function hide(hidden: boolean) {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
}

describe("markTab", () => {
  it("puts the alert in the tab's title and icon, and takes it back", () => {
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg" />';
    document.title = "Dicehall";
    const unmark = markTab("Your turn");
    expect(document.title).toBe("(!) Your turn · Dicehall");
    expect(document.querySelector("link[rel~='icon']")?.getAttribute("href")).toBe(ALERT_FAVICON);
    unmark();
    expect(document.title).toBe("Dicehall");
    expect(document.querySelector("link[rel~='icon']")?.getAttribute("href")).toBe("/favicon.svg");
  });
});

describe("showNotification", () => {
  const made: string[] = [];
  function allow(permission: NotificationPermission) {
    made.length = 0;
    vi.stubGlobal(
      "Notification",
      Object.assign(
        function (this: object, title: string) {
          made.push(title);
        },
        { permission },
      ),
    );
  }

  it("notifies only a hidden tab, with the player's permission", () => {
    allow("granted");
    hide(false);
    expect(showNotification("Dicehall: Your turn", "Game #1", "k")).toBe(false);
    hide(true);
    expect(showNotification("Dicehall: Your turn", "Game #1", "k")).toBe(true);
    expect(made).toEqual(["Dicehall: Your turn"]);
    allow("default");
    expect(showNotification("Dicehall: Your turn", "Game #1", "k")).toBe(false);
    expect(made).toEqual([]);
  });
});
