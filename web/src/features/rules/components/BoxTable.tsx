import type { BoxInfo, RuleSetInfo } from "@dicehall/core/rules/ruleSets.ts";
import { boxExamples } from "../rulesExamples.ts";
import { DiceRow } from "./DiceRow.tsx";

/** One section of a sheet: each box, how it scores, and examples scored by the engine. */
export function BoxTable({
  info,
  boxes,
  caption,
}: {
  info: RuleSetInfo;
  boxes: readonly BoxInfo[];
  caption: string;
}) {
  return (
    <div className="rules-table-wrap">
      <table className="rules-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Box</th>
            <th scope="col">Scores</th>
            <th scope="col">Examples</th>
          </tr>
        </thead>
        <tbody>
          {boxes.map((box) => (
            <tr key={box.index} data-testid={`rules-box-${box.index}`}>
              <th scope="row">
                <span className="rules-table__index" aria-hidden="true">
                  {box.index}
                </span>{" "}
                {box.name}
              </th>
              <td>{box.rule}</td>
              <td>
                <ul className="rules-examples">
                  {boxExamples(info.id, box.index).map((example) => (
                    <li key={example.dice.join("")}>
                      {/* One name for the example ("3, 3, 3, 5, 2 scores 9"), with no text
                          hidden in a 1 px box: that box is 57 px of text clipped on every row. */}
                      <DiceRow
                        dice={example.dice}
                        label={`${example.dice.join(", ")} scores ${example.points}`}
                      />
                      <span className="rules-examples__points" aria-hidden="true">
                        → {example.points}
                      </span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
