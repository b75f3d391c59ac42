import { isRuleSetId } from "../rules/ruleSets.ts";
import {
  emptyValues,
  forEachState,
  modelOf,
  stateIndex,
  type JokerRule,
  type SolverTable,
} from "./solver.ts";

/**
 * A table as bytes, for IndexedDB or a shipped file, and back. Only the states that play can
 * reach and that are not copies (see forEachState) are stored, in solving order:
 *
 *   bytes 0..3   "DHCT"
 *   byte  4      format version (1)
 *   byte  5      rule set (0..3)
 *   byte  6      joker rule (0 forced, 1 free)
 *   byte  7      value width: 4 (float32) or 8 (float64)
 *   bytes 8..11  number of values (uint32, little-endian)
 *   bytes 12..   the values, little-endian
 *
 * float32 keeps every value within about 2e-5 of the float64 build: enough for hints (the ranking
 * of options closer than that is noise); float64 is exact.
 */

const MAGIC = [0x44, 0x48, 0x43, 0x54]; // "DHCT"
const VERSION = 1;
const HEADER = 12;

export type ValueWidth = 4 | 8;

export function serialiseTable(table: SolverTable, width: ValueWidth = 4): Uint8Array {
  const m = table.model;
  const order: number[] = [];
  forEachState(m, (index, _mask, _upper, _flag, copyOf) => {
    if (copyOf < 0) order.push(index);
  });
  const bytes = new Uint8Array(HEADER + order.length * width);
  const view = new DataView(bytes.buffer);
  MAGIC.forEach((b, i) => (bytes[i] = b));
  bytes[4] = VERSION;
  bytes[5] = table.ruleSet;
  bytes[6] = table.jokerRule === "forced" ? 0 : 1;
  bytes[7] = width;
  view.setUint32(8, order.length, true);
  order.forEach((index, i) => {
    if (width === 4) view.setFloat32(HEADER + 4 * i, table.values[index], true);
    else view.setFloat64(HEADER + 8 * i, table.values[index], true);
  });
  return bytes;
}

/** @throws RangeError for bytes that are not a table of this format */
export function deserialiseTable(input: Uint8Array | ArrayBuffer): SolverTable {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length < HEADER || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new RangeError("Not a coach table.");
  }
  if (bytes[4] !== VERSION)
    throw new RangeError(`Coach table version ${bytes[4]} is not ${VERSION}.`);
  const ruleSet = bytes[5];
  if (!isRuleSetId(ruleSet)) throw new RangeError(`Unknown rule set ${ruleSet}.`);
  const jokerRule: JokerRule = bytes[6] === 0 ? "forced" : "free";
  const width = bytes[7];
  if (width !== 4 && width !== 8) throw new RangeError(`Unknown value width ${width}.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  if (bytes.length !== HEADER + count * width)
    throw new RangeError("A coach table of the wrong length.");
  const m = modelOf(ruleSet);
  const values = emptyValues(m);
  let i = 0;
  forEachState(m, (index, _mask, _upper, _flag, copyOf) => {
    if (copyOf >= 0) {
      values[index] = values[copyOf];
      return;
    }
    if (i >= count) throw new RangeError("A coach table too short for its rule set.");
    values[index] =
      width === 4 ? view.getFloat32(HEADER + 4 * i, true) : view.getFloat64(HEADER + 8 * i, true);
    i++;
  });
  if (i !== count) throw new RangeError("A coach table too long for its rule set.");
  return { ruleSet, model: m, values, startValue: values[stateIndex(m, 0, 0, 0)], jokerRule };
}
