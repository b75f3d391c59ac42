import { lazy, Suspense, useEffect, useRef, type ReactNode } from "react";
import { Link, Route, Routes, useLocation } from "react-router";
import { useConnection } from "wagmi";
import { NetworkBanner } from "@/features/wallet/components/NetworkBanner.tsx";
import { WalletButton } from "@/features/wallet/components/WalletButton.tsx";
import { useHallWatcher } from "@/chain/hall.ts";
import { useIndexCatchUp } from "@/data/indexerStatus.ts";
import { AlertToggles } from "@/ui/AlertToggles.tsx";
import { Later } from "@/ui/Later.tsx";
import { navActive, type NavSection } from "@/ui/navActive.ts";
import { OfflineNotice } from "@/ui/OfflineNotice.tsx";
import { RematchNotice } from "@/ui/RematchNotice.tsx";
import { TurnAlerts } from "@/ui/TurnAlerts.tsx";
import { PAGES } from "./pages.tsx";

// A connected player's session keys at work on every page: their code (the key's secp256k1 among
// it) loads once a wallet is connected, never in the first load.
const SessionKeys = lazy(() =>
  import("@/ui/SessionKeys.tsx").then((m) => ({ default: m.SessionKeys })),
);
const AskAgain = lazy(() => import("@/ui/AskAgain.tsx").then((m) => ({ default: m.AskAgain })));

function WhenConnected({ children }: { children: ReactNode }) {
  const { address } = useConnection();
  return address ? <Suspense fallback={null}>{children}</Suspense> : null;
}

const NAV: { to: string; label: string; section: NavSection }[] = [
  { to: "/games", label: "Play", section: "play" },
  { to: "/practice", label: "Practice", section: "practice" },
  { to: "/leaderboard", label: "Leaderboard", section: "leaderboard" },
  { to: "/history", label: "History", section: "history" },
  { to: "/rules/yahtzee", label: "Rules", section: "rules" },
];

function NotFound() {
  return (
    <section className="page">
      <h1>Nothing here</h1>
      <p>
        That page doesn't exist. <Link to="/games">Back to the tables</Link>.
      </p>
    </section>
  );
}

/** Moves focus to the page's heading after navigation, so screen readers start at the new page. */
function useFocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading && document.activeElement === document.body) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

/** The hall's event watch and the index's catch-up behind it (they draw nothing). */
function Watchers() {
  useHallWatcher();
  useIndexCatchUp();
  return null;
}

export function App() {
  const { pathname } = useLocation();
  // The page answers from here on (before, it was the build's prerendered HTML): the boot script
  // in index.html stops holding form submissions, and the browser tests wait for this mark.
  useEffect(() => {
    document.documentElement.dataset.app = "running";
  }, []);
  const active = navActive(pathname);
  useFocusOnNavigate();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <Link to="/" className="brand" aria-label="Dicehall home">
          <span className="brand__mark" aria-hidden="true">
            ⚄
          </span>
          <span className="brand__name">Dicehall</span>
        </Link>
        <nav className="nav" aria-label="Main">
          {NAV.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              className={`nav__link${item.section === active ? " active" : ""}`}
              aria-current={item.section === active ? "page" : undefined}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="header__wallet">
          <AlertToggles />
          <WalletButton />
        </div>
      </header>
      {/* None of these draws anything in the prerendered page: they start a task after it is
          taken over, so the page's first effects are a shorter task on a phone. */}
      <Later>
        <Watchers />
        <OfflineNotice />
        <NetworkBanner />
        <RematchNotice />
        <TurnAlerts />
        <WhenConnected>
          <SessionKeys />
          <AskAgain />
        </WhenConnected>
      </Later>
      <main id="main" className="main">
        {/* Each page loading its code shows its own "Loading…" (pages.tsx). */}
        <Routes>
          {PAGES.map(({ path, Component }) => (
            <Route key={path} path={path} element={<Component />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </main>
      <footer className="footer">
        <p>
          Dice from Pyth Entropy, rules enforced on chain.{" "}
          <Link to="/rules/yahtzee">How to play</Link>
        </p>
      </footer>
    </div>
  );
}
