import { Link } from "react-router";
import { DieFace } from "@/ui/table/Die.tsx";
import "./home.css";

const PLACES = [
  {
    to: "/games",
    title: "Play for real",
    text: "Open a table for 2 to 4 players or join one, bet in ETH or an allowed token, winner takes the pot.",
  },
  {
    to: "/practice",
    title: "Practice",
    text: "No wallet needed: 1 to 4 players on this device, any rule set, sessions of up to ten games.",
  },
  {
    to: "/leaderboard",
    title: "Leaderboard",
    text: "Wins, best scores, Yahtzees and net winnings of every player, from the hall's own events.",
  },
  {
    to: "/history",
    title: "History and replays",
    text: "Replay any game roll by roll and check every die against the random number behind it.",
  },
  {
    to: "/rules",
    title: "Rules",
    text: "Yahtzee, Yatzy, Yazty and the 16-box Extended sheet, with worked examples and the Joker rule.",
  },
];

/** The front door: what Dicehall is in a few lines, and the ways in. */
export function HomePage() {
  return (
    <div className="page home">
      <section className="home-hero" aria-labelledby="home-title">
        <div className="home-hero__dice" aria-hidden="true">
          {[6, 6, 6, 6, 6].map((value, i) => (
            <span key={i} className="home-hero__die">
              <DieFace value={value} />
            </span>
          ))}
        </div>
        <h1 id="home-title">Dicehall</h1>
        <p className="lead home-hero__lead">
          An on-chain Yahtzee hall. Sit down at a table with 2 to 4 players and a bet; one contract
          holds the pot, enforces every rule and pays the winner. The dice come from Pyth Entropy,
          so nobody, not even the hall, can choose them, and anyone can check them afterwards.
        </p>
        <p className="home-hero__actions">
          <Link className="button button--primary button--large" to="/games">
            Find a table
          </Link>
          <Link className="button button--large" to="/practice">
            Practise without a wallet
          </Link>
        </p>
      </section>

      <ul className="home-places">
        {PLACES.map((place) => (
          <li key={place.to} className="card home-place">
            <h2>
              <Link to={place.to}>{place.title}</Link>
            </h2>
            <p>{place.text}</p>
          </li>
        ))}
      </ul>

      <section className="card home-how" aria-labelledby="how-title">
        <h2 id="how-title">How a game goes</h2>
        <ol>
          <li>Someone opens a table: rule set, seats, bet, and how long each move may take.</li>
          <li>Players join and pay the bet; when the last seat fills, the turn order is drawn.</li>
          <li>
            On your turn you roll up to three times, keeping the dice you like, then fill one box.
            Each roll asks Pyth Entropy for a fresh random number.
          </li>
          <li>
            When every sheet is full the best total takes the pot (ties share it). Anyone who stalls
            past the clock can be timed out, so no game gets stuck.
          </li>
        </ol>
      </section>
    </div>
  );
}
