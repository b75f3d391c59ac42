// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AddressName } from "./Address.tsx";
import { jazziconSeed } from "./Identicon.tsx";

const ALICE: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ME: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

vi.mock("wagmi", () => ({ useConnection: () => ({ address: ME }) }));
const ens = vi.hoisted(() => ({ name: null as string | null, avatar: null as string | null }));
vi.mock("@/chain/ens.ts", () => ({
  useEnsName: () => ens.name,
  useEnsAvatar: (name: string | null) => (name ? ens.avatar : null),
}));

afterEach(() => {
  cleanup();
  ens.name = null;
  ens.avatar = null;
});

describe("AddressName", () => {
  it("shows the account's jazzicon beside its short form", async () => {
    const { container } = render(<AddressName address={ALICE} />);
    expect(screen.getByText("0x7099…79C8")).toBeTruthy();
    await waitFor(() => expect(container.querySelector(".identicon svg")).not.toBeNull());
    // The face is decorative: the name beside it says who.
    expect(container.querySelector(".identicon")?.getAttribute("aria-hidden")).toBe("true");
    expect(jazziconSeed(ALICE)).toBe(0x70997970);
  });

  it("keeps the full address one click away, and copies it", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<AddressName address={ALICE} />);
    const face = screen.getByRole("button", { name: "Full address of 0x7099…79C8" });
    expect(face.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText(ALICE)).toBeNull();
    fireEvent.click(face);
    expect(face.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText(ALICE)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    });
    expect(writeText).toHaveBeenCalledWith(ALICE);
    expect(screen.getByRole("button", { name: "Copied" })).toBeTruthy();
  });

  it("shows the ENS name and avatar where they resolve, and “You” for the viewer", () => {
    ens.name = "alice.eth";
    ens.avatar = "https://example.org/alice.png";
    const { container } = render(<AddressName address={ALICE} />);
    expect(screen.getByText("alice.eth")).toBeTruthy();
    expect(container.querySelector("img.address__avatar")?.getAttribute("src")).toBe(ens.avatar);
    cleanup();
    ens.name = null;
    render(<AddressName address={ME} />);
    expect(screen.getByText("You")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Your full address" })).toBeTruthy();
  });

  it("links to the player's page, by its name and beside the full address", () => {
    render(
      <MemoryRouter>
        <AddressName address={ALICE} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("link", { name: "0x7099…79C8" }).getAttribute("href")).toBe(
      `/players/${ALICE}`,
    );
    fireEvent.click(screen.getByRole("button", { name: "Full address of 0x7099…79C8" }));
    expect(screen.getByRole("link", { name: "Player page" }).getAttribute("href")).toBe(
      `/players/${ALICE}`,
    );
  });

  it("faceOnly: the face and its full address, for a line that names the player itself", () => {
    render(
      <MemoryRouter>
        <AddressName address={ALICE} faceOnly />
      </MemoryRouter>,
    );
    expect(screen.queryByText("0x7099…79C8")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Full address of 0x7099…79C8" }));
    expect(screen.getByText(ALICE)).toBeTruthy();
  });
});
