// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AlertToggles } from "./AlertToggles.tsx";
import { soundOn } from "./alerts.ts";

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function fakeNotification(initial: NotificationPermission) {
  const state = { permission: initial, asked: 0 };
  const Fake = {
    get permission() {
      return state.permission;
    },
    requestPermission: vi.fn(async () => {
      state.asked++;
      state.permission = "granted";
      return state.permission;
    }),
  };
  vi.stubGlobal("Notification", Fake);
  return state;
}

describe("AlertToggles", () => {
  it("has the turn sound on by default, and remembers it off", async () => {
    fakeNotification("default");
    render(<AlertToggles />);
    const sound = screen.getByRole("button", { name: "Turn sound" });
    expect(sound.getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(sound);
    expect(sound.getAttribute("aria-pressed")).toBe("false");
    expect(localStorage.getItem("dicehall.alerts.sound")).toBe("off");
    expect(soundOn()).toBe(false);
    cleanup();
    render(<AlertToggles />);
    expect(screen.getByRole("button", { name: "Turn sound" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
  });

  it("asks for notifications only from its button, never on load", async () => {
    const state = fakeNotification("default");
    render(<AlertToggles />);
    expect(state.asked).toBe(0);
    await userEvent.click(screen.getByRole("button", { name: "Notify me" }));
    expect(state.asked).toBe(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Notify me" })).toBeNull());
  });

  it("offers nothing to ask where notifications are refused or missing", () => {
    fakeNotification("denied");
    render(<AlertToggles />);
    expect(screen.queryByRole("button", { name: "Notify me" })).toBeNull();
  });
});
