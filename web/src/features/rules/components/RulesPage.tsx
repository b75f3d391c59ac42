import { Link, NavLink, useParams } from "react-router";
import { RULE_SETS, type RuleSetInfo } from "@dicehall/core/rules/ruleSets.ts";
import { upperBonusExample } from "../rulesExamples.ts";
import { BoxTable } from "./BoxTable.tsx";
import { MoneyRules, RandomnessRules, TurnRules } from "./HallRules.tsx";
import { JokerSection } from "./JokerSection.tsx";
import "./rules.css";

function RuleSetNav() {
  return (
    <nav aria-label="Rule sets" className="rules-nav">
      <NavLink to="/rules" end className="rules-nav__link">
        All rule sets
      </NavLink>
      {RULE_SETS.map((r) => (
        <NavLink key={r.key} to={`/rules/${r.key}`} className="rules-nav__link">
          {r.name}
        </NavLink>
      ))}
    </nav>
  );
}

function Bonuses({ info }: { info: RuleSetInfo }) {
  const upper = upperBonusExample(info.id);
  return (
    <section aria-labelledby="bonus-title" className="card">
      <h2 id="bonus-title">Bonuses</h2>
      <ul>
        {info.upperBonus ? (
          <li>
            <strong>Upper bonus: +{info.upperBonus.points}</strong> when the six upper boxes add up
            to {info.upperBonus.threshold} or more. Three of each face is exactly enough:{" "}
            {upper && (
              <>
                3 + 6 + 9 + 12 + 15 + 18 = {upper.upper}, bonus +{upper.bonus}.
              </>
            )}
          </li>
        ) : (
          <li>No upper bonus.</li>
        )}
        {info.yahtzeeBonus ? (
          <li>
            <strong>Yahtzee bonus: +100</strong> for each further Yahtzee rolled once the Yahtzee
            box holds 50 (none if it holds 0). It comes with the Joker rule below.
          </li>
        ) : (
          <li>
            No bonus for further{" "}
            {info.boxes.find((b) => b.index === fiveOfAKindBox(info))?.name ?? "five of a kind"}s,
            and no Joker rule.
          </li>
        )}
      </ul>
    </section>
  );
}

const fiveOfAKindBox = (info: RuleSetInfo): number => (info.key === "yatzy" ? 14 : 11);

function RuleSetRules({ info }: { info: RuleSetInfo }) {
  const upper = info.boxes.filter((b) => b.section === "upper");
  const lower = info.boxes.filter((b) => b.section === "lower");
  return (
    <div className="page rules">
      <div className="page__head">
        <div>
          <p className="breadcrumbs">
            <Link to="/rules">Rules</Link> / {info.name}
          </p>
          <h1>Rules: {info.name}</h1>
        </div>
        <Link className="button" to="/practice">
          Try it in practice mode
        </Link>
      </div>
      <RuleSetNav />
      <p className="lead">{info.tagline}</p>
      <p>
        Five six-sided dice, up to three rolls a turn, {info.boxes.length} boxes on the sheet. Box
        numbers are the ones the contract uses. Every example below is scored by the same rules
        engine that runs the table.
      </p>
      <section aria-labelledby="boxes-title" className="card">
        <h2 id="boxes-title">The boxes</h2>
        <BoxTable
          info={info}
          boxes={upper}
          caption="Upper section: the sum of the dice showing that face"
        />
        <BoxTable info={info} boxes={lower} caption="Lower section" />
      </section>
      <Bonuses info={info} />
      {info.joker && <JokerSection />}
      <TurnRules rounds={info.boxes.length} />
      <MoneyRules />
      <RandomnessRules />
    </div>
  );
}

function RulesIndex() {
  return (
    <div className="page rules">
      <div className="page__head">
        <h1>Rules</h1>
      </div>
      <RuleSetNav />
      <p className="lead">
        Dicehall plays four rule sets. Every table picks one when it opens; the contract enforces it
        and the table shows what each box would score before you choose.
      </p>
      <ul className="rules-index">
        {RULE_SETS.map((r) => (
          <li key={r.key} className="card rules-index__item">
            <h2>
              <Link to={`/rules/${r.key}`}>{r.name}</Link>
            </h2>
            <p>{r.tagline}</p>
            <p className="muted small">
              {r.boxes.length} boxes
              {r.upperBonus
                ? ` · upper bonus +${r.upperBonus.points} at ${r.upperBonus.threshold}`
                : " · no upper bonus"}
              {r.yahtzeeBonus ? " · Yahtzee bonus and Joker rule" : ""}
            </p>
          </li>
        ))}
      </ul>
      <TurnRules />
      <MoneyRules />
      <RandomnessRules />
    </div>
  );
}

/** /rules and /rules/:ruleSet (yahtzee, yatzy, yazty or extended). */
export function RulesPage() {
  const { ruleSet } = useParams();
  if (!ruleSet) return <RulesIndex />;
  const info = RULE_SETS.find((r) => r.key === ruleSet.toLowerCase());
  if (!info) {
    return (
      <section className="page rules">
        <h1>No such rule set</h1>
        <p>
          Dicehall plays {RULE_SETS.map((r) => r.name).join(", ")}.{" "}
          <Link to="/rules">See them all</Link>.
        </p>
      </section>
    );
  }
  return <RuleSetRules info={info} />;
}
