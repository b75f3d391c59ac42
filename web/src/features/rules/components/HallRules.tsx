import { Link } from "react-router";
import { DiceRow } from "./DiceRow.tsx";
import { rollDice } from "@dicehall/core/rules/dice.ts";
import { keccak256, toBytes } from "viem";

/** What every rule set shares at the hall: turns and clocks, money, and where the dice come from. */

export function TurnRules({ rounds }: { rounds?: number }) {
  return (
    <section aria-labelledby="turns-title" className="card">
      <h2 id="turns-title">Turns and time</h2>
      <ul>
        <li>
          A game has {rounds ? `${rounds} rounds` : "as many rounds as the sheet has boxes"}, one
          per box. In each round every player takes one turn, in the order drawn when the table
          filled.
        </li>
        <li>
          A turn is up to three rolls. The first rolls all five dice; each re-roll rolls the dice
          you did not keep (at least one). Then you fill exactly one open box, with 0 if the dice do
          not qualify.
        </li>
        <li>
          Each move has a clock (the table's move timeout, chosen when it opened). When it runs out,
          anyone may claim the timeout: the player forfeits, their bet stays in the pot, and play
          goes on without them. The last player standing wins.
        </li>
        <li>
          While the dice are on their way from Pyth Entropy, your clock waits. A roll the randomness
          provider refuses may be asked again by anyone at once, keeping the same dice. A roll it
          accepted is never asked again: if its number is late, any player&apos;s app can deliver it
          from the provider&apos;s public revelation. If no dice come within the game&apos;s
          call-off window (a day by default), anyone can call the game off and the pot is shared
          back.
        </li>
        <li>
          A table that does not fill within its join window can be cancelled by anyone, and every
          bet is refunded. The creator can cancel earlier; others may leave before the start.
        </li>
        <li>
          When every player still in the game has filled their sheet, the highest total wins; equal
          highest totals share the pot. A player who forfeited cannot win.
        </li>
      </ul>
    </section>
  );
}

export function MoneyRules() {
  return (
    <section aria-labelledby="money-title" className="card">
      <h2 id="money-title">Bets, fees and payouts</h2>
      <ul>
        <li>
          Every seat pays the same bet, in the chain's coin or an allowed token. The pot is bet ×
          seats and sits in the contract until the game ends.
        </li>
        <li>
          The house fee is a share of the pot set by the hall (at most 10%) and fixed for a table
          when it opens. The rest is split equally among the winners; a remainder too small to split
          goes to the first winner in turn order.
        </li>
        <li>
          Winnings and refunds are credits in the hall: withdraw them whenever you like. Nobody, the
          hall's owner included, can touch a running game's pot or your credits.
        </li>
        <li>
          Each roll pays Pyth Entropy's fee for one random number, in the chain's coin; anything
          sent above the fee is credited back to you.
        </li>
      </ul>
    </section>
  );
}

const NAMED = keccak256(toBytes("dicehall"));

export function RandomnessRules() {
  const example = rollDice(NAMED, null, 0);
  return (
    <section aria-labelledby="random-title" className="card">
      <h2 id="random-title">Where the dice come from</h2>
      <p>
        Every roll asks{" "}
        <a href="https://docs.pyth.network/entropy" rel="noreferrer" target="_blank">
          Pyth Entropy
        </a>{" "}
        for a fresh random number. The contract adds its own contribution to the request, so the
        provider alone cannot choose the outcome, and nobody knows the number before it is revealed.
        Later rolls of a turn are never derived from a number already on chain: that would let
        anyone read your re-rolls before you choose what to keep.
      </p>
      <p>
        When the number <code>r</code> arrives, each die that is rolled becomes
      </p>
      <pre className="rules-formula">
        <code>die[i] = 1 + uint256(keccak256(abi.encode(r, i))) % 6</code>
      </pre>
      <p>
        with <code>i</code> its position, 0 to 4; kept dice stay as they were. For example{" "}
        <code className="rules-hex">r = keccak256("dicehall")</code> rolls{" "}
        <DiceRow dice={example} />.
      </p>
      <p>
        The contract writes the dice, the request's sequence number and <code>r</code> into its{" "}
        <code>DiceRolled</code> event. Anyone can recompute them: every replay has a{" "}
        <strong>Verify this roll</strong> panel that does it in your browser and compares with the
        chain. The tumbling dice on screen are only for show: they stop on the values in the event
        and never decide anything.
      </p>
      <p>
        In <Link to="/practice">practice mode</Link> the random number comes from your browser (
        <code>crypto.getRandomValues</code>) and the same formula turns it into dice.
      </p>
    </section>
  );
}
