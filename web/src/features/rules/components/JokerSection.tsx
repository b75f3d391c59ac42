import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { jokerExamples } from "../rulesExamples.ts";
import { DiceRow } from "./DiceRow.tsx";

/** The forced Joker rule of classic Yahtzee, with three worked examples from the engine. */
export function JokerSection() {
  const boxes = ruleSet(0).boxes;
  return (
    <section aria-labelledby="joker-title" className="card">
      <h2 id="joker-title">The Joker rule</h2>
      <p>
        When you score five of a kind and the Yahtzee box is already filled (with 50 or with 0), the
        five dice are a <em>Joker</em> and the rule is forced:
      </p>
      <ol>
        <li>if the upper box of that face is open, you must score there;</li>
        <li>
          otherwise you may score any open lower box, and Full House, Small Straight and Large
          Straight then count their full 25, 30 and 40; the others score as usual;
        </li>
        <li>only when every lower box is filled too, you put 0 in an open upper box.</li>
      </ol>
      <p>
        If the Yahtzee box holds 50, each further Yahtzee also earns a <strong>+100 bonus</strong>,
        wherever the Joker lands. Five of a kind is never a Full House except as a Joker.
      </p>
      {jokerExamples().map((example) => (
        <article key={example.title} className="joker-example">
          <h3>{example.title}</h3>
          <p>
            {example.situation} You roll <DiceRow dice={example.dice} />.
          </p>
          <p>{example.allowed.length === 1 ? "The only box allowed:" : "Boxes allowed:"}</p>
          <ul className="joker-example__options">
            {example.allowed.map((option) => (
              <li key={option.box}>
                {boxes[option.box].name}: <strong>{option.points}</strong>
                {option.bonus > 0 && <> + {option.bonus} bonus</>}
              </li>
            ))}
          </ul>
          {example.reason && <p className="muted small">Any other open box: “{example.reason}”</p>}
        </article>
      ))}
    </section>
  );
}
