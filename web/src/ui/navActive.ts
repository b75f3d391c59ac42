/** The main menu's sections, as the header names them. */
export type NavSection = "play" | "practice" | "leaderboard" | "history" | "rules";

/**
 * Which section of the main menu a page belongs to. A game's replay and its analysis sit under
 * /games/:id but are a look back at a played game, so they light History, not Play.
 */
export function navActive(pathname: string): NavSection | null {
  const parts = pathname.split("/").filter(Boolean);
  switch (parts[0]) {
    case "games":
      return parts.length >= 3 && (parts[2] === "replay" || parts[2] === "analysis")
        ? "history"
        : "play";
    case "history":
      return "history";
    case "practice":
      return "practice";
    case "leaderboard":
      return "leaderboard";
    case "rules":
      return "rules";
    default:
      return null;
  }
}
