import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { DEFAULT_RPC_URL, tryLines } from "../scripts/lib/banner.ts";

// The dev banner's hints must work as printed: simulate and preview look for the chain at the
// default URL only, so a stack on another port has to be named in the command.

describe("the dev banner's hints", () => {
  it("name no URL when the chain is on the default port", () => {
    const [simulate, preview] = tryLines(DEFAULT_RPC_URL);
    assert.match(simulate, /npm run simulate -- --games 4\s/);
    assert.doesNotMatch(simulate + preview, /--rpc-url/);
    assert.match(preview, /npm run preview$/);
  });

  it("carry --rpc-url when the chain is on another port", () => {
    const url = "http://127.0.0.1:18545";
    const [simulate, preview] = tryLines(url);
    assert.match(simulate, /npm run simulate -- --games 4 --rpc-url http:\/\/127\.0\.0\.1:18545\s/);
    assert.match(preview, /npm run preview -- --rpc-url http:\/\/127\.0\.0\.1:18545$/);
  });
});
