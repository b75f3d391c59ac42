import type { RollRecord } from "@dicehall/core/game/gameState.ts";
import {
  ENTROPY_EXPLORER,
  entropyExplorerUrl,
  verifyRoll,
  type OrderDrawCheck,
} from "@dicehall/core/game/verify.ts";

const short = (hex: string) => `${hex.slice(0, 10)}…${hex.slice(-8)}`;
const keptList = (mask: number) =>
  [0, 1, 2, 3, 4]
    .filter((i) => (mask >> i) & 1)
    .map((i) => i + 1)
    .join(", ");

/**
 * "Verify this roll": the Entropy request, the revealed number, and each die recomputed in the
 * browser with docs/RULES.md's formula, compared with the dice the contract logged.
 */
export function VerifyRoll({
  roll,
  chainId,
  blockNumber,
  orderDraw = null,
  name = (a) => a,
}: {
  roll: RollRecord;
  chainId: number;
  blockNumber: bigint;
  /** Set on a game's first roll: its number also drew the turn order. */
  orderDraw?: OrderDrawCheck | null;
  name?: (address: `0x${string}`) => string;
}) {
  const check = verifyRoll(roll);
  const explorer = entropyExplorerUrl(chainId, roll.sequenceNumber);
  return (
    <section className="card verify" aria-labelledby="verify-title">
      <h2 id="verify-title">Verify this roll</h2>
      <dl className="facts verify__facts">
        <div>
          <dt>Pyth Entropy request</dt>
          <dd>sequence number {roll.sequenceNumber.toString()}</dd>
        </div>
        <div>
          <dt>Roll</dt>
          <dd>
            {roll.rollNumber} of 3
            {roll.rollNumber > 1 &&
              (roll.keepMask ? `, keeping die ${keptList(roll.keepMask)}` : ", keeping none")}
          </dd>
        </div>
        <div>
          <dt>Logged in</dt>
          <dd>block {blockNumber.toString()}</dd>
        </div>
        {roll.previous && (
          <div>
            <dt>Dice before</dt>
            <dd>{roll.previous.join(", ")}</dd>
          </div>
        )}
      </dl>
      <p className="verify__random">
        Revealed random number <code>r</code>:{" "}
        <code className="verify__hex" data-testid="verify-random">
          {roll.randomNumber}
        </code>
      </p>
      {check.error ? (
        <p role="alert" className="verify__verdict verify__verdict--bad">
          This roll cannot be recomputed: {check.error}
        </p>
      ) : (
        <>
          <div className="verify__wrap">
            <table className="verify__table">
              <caption className="sr-only">Each die recomputed from r</caption>
              <thead>
                <tr>
                  <th scope="col">Die</th>
                  <th scope="col">
                    <code>keccak256(abi.encode(r, i))</code>
                  </th>
                  <th scope="col">1 + hash mod 6</th>
                  <th scope="col">On chain</th>
                  <th scope="col">Match</th>
                </tr>
              </thead>
              <tbody>
                {check.dice.map((die) => (
                  <tr key={die.position} className={die.matches ? undefined : "is-mismatch"}>
                    <th scope="row">
                      {die.position + 1} <span className="muted small">(i = {die.position})</span>
                    </th>
                    <td>
                      {die.hash ? (
                        <code title={die.hash}>{short(die.hash)}</code>
                      ) : (
                        <span className="muted">kept from the roll before</span>
                      )}
                    </td>
                    <td>
                      {die.hash
                        ? `1 + ${(BigInt(die.hash) % 6n).toString()} = ${die.value}`
                        : die.value}
                    </td>
                    <td>{die.onChain}</td>
                    <td>
                      {die.matches ? (
                        <span className="verify__ok">✓ same</span>
                      ) : (
                        <span className="verify__bad">✗ differs</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p
            className={`verify__verdict ${check.matches ? "verify__verdict--ok" : "verify__verdict--bad"}`}
            data-testid="verify-verdict"
          >
            {check.matches
              ? `All five dice match: ${roll.dice.join(", ")} is what r gives.`
              : "These dice do not match the revealed number."}
            {check.previousUnknown &&
              " (The dice before this re-roll are not in the logs read, so only the re-rolled dice were checked.)"}
          </p>
        </>
      )}
      {orderDraw && (
        <p
          className={`verify__verdict ${orderDraw.matches ? "verify__verdict--ok" : "verify__verdict--bad"}`}
          data-testid="verify-order"
        >
          This was the game&apos;s first roll: its number also drew the turn order, shuffling the
          seats in join order ({orderDraw.joinOrder.map(name).join(", ")}) with the seed{" "}
          <code>keccak256(abi.encode(r, keccak256(&quot;DiceHall.turnOrder&quot;)))</code>.{" "}
          {orderDraw.matches
            ? `It gives ${orderDraw.expected.map(name).join(", ")}: the order the contract announced.`
            : `It gives ${orderDraw.expected.map(name).join(", ")}, but the contract announced ${orderDraw.onChain.map(name).join(", ")}.`}
        </p>
      )}
      <p className="muted small">
        {explorer ? (
          <>
            See the request on{" "}
            <a href={explorer} target="_blank" rel="noreferrer">
              Pyth’s Entropy explorer (sequence number {roll.sequenceNumber.toString()})
            </a>
            .
          </>
        ) : (
          <>
            This chain is not covered by{" "}
            <a href={ENTROPY_EXPLORER} target="_blank" rel="noreferrer">
              Pyth’s Entropy explorer
            </a>{" "}
            (on a local chain the dice come from a stand-in for Pyth Entropy: our model of it, with
            a provider and a revelation service of its own, or Pyth&apos;s MockEntropy); the
            recomputation above needs nothing but the event.
          </>
        )}
      </p>
    </section>
  );
}
