import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, zeroAddress, type Address, type TransactionReceipt } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import {
  BET,
  DEFAULT_ENTROPY_TIMEOUT,
  MOVE_TIMEOUT,
  NATIVE,
  PRICED_ROLL_FEE,
  STATUS,
  TOKEN_BET,
  addressOf,
  consentOf,
  credits,
  gameView,
  hallBalance,
  hallEvent,
  hallEvents,
  hallFixture,
  lobbyConfig,
  openLobby,
  playerView,
  pricedHallFixture,
  reveal,
  rollWith,
  scoreBox,
  send,
  startGame,
  walletOf,
  type Hall,
} from "./helpers/hall.ts";
import { keepsJoinOrder, randomForRoll } from "./helpers/dice.ts";

/**
 * Credit payments and session keys (PROTOCOL.md, "Credit and sessions"): money into the credit,
 * bets and roll fees out of it, and what a player's session key may and may never do.
 */

const connection = await network.create();
const { networkHelpers } = connection;
const WEEK = 7 * 24 * 3600;
const ALLOWANCE = PRICED_ROLL_FEE * 40n;
/** PricedEntropyMock's modes (contracts/test/PricedEntropyMock.sol). */
const ANSWER = 0;
const REFUSE_REQUEST = 1;

async function now(h: Hall): Promise<bigint> {
  return (await h.publicClient.getBlock()).timestamp;
}

/** The hall's key wallets: accounts no fixture uses for anything else. */
function keysOf(h: Hall): [WalletClient, WalletClient, WalletClient] {
  return [h.wallets[10], h.wallets[11], h.wallets[12]];
}

interface GrantOptions {
  expiresIn?: bigint;
  feeAllowance?: bigint;
  keyGas?: bigint;
}

type Grant = Awaited<ReturnType<typeof grantFor>>;

async function grantFor(h: Hall, key: WalletClient | Address, o: GrantOptions = {}) {
  return {
    key: typeof key === "string" ? key : key.account.address,
    expiresAt: (await now(h)) + (o.expiresIn ?? 3600n),
    feeAllowance: o.feeAllowance ?? ALLOWANCE,
    keyGas: o.keyGas ?? 0n,
  };
}

/** The grant's key's own consent to `player` (the key must be one of the hall's wallets). */
function consentTo(h: Hall, player: WalletClient, grant: Grant) {
  return consentOf(h, walletOf(h, grant.key), player, grant);
}

/** Names `key` with its consent; by default the value pays the key's gas and sets the fees aside. */
async function openSession(
  h: Hall,
  player: WalletClient,
  key: WalletClient,
  o: GrantOptions & { value?: bigint } = {},
): Promise<TransactionReceipt> {
  const grant = await grantFor(h, key, o);
  return send(
    h,
    h.hall.write.openSession([grant, await consentTo(h, player, grant)], {
      account: player.account,
      value: o.value ?? grant.keyGas + grant.feeAllowance,
    }),
  );
}

/** A priced hall with a running 2-seat game (alice, bob) and alice's session key with credit. */
async function keyedFixture() {
  const h = await networkHelpers.loadFixture(pricedHallFixture);
  const [key, bobKey, otherKey] = keysOf(h);
  const { gameId, order } = await startGame(h, { seats: 2 });
  // The fees set aside for the key, and ten more in alice's credit.
  await openSession(h, h.alice, key, { value: ALLOWANCE + PRICED_ROLL_FEE * 10n });
  return { ...h, gameId, order, key, bobKey, otherKey };
}

/** A roll the key sends (msg.value 0), then Entropy's answer showing `dice`. */
async function keyRoll(
  h: Hall,
  gameId: bigint,
  key: WalletClient,
  keepMask: number,
  dice: readonly number[],
) {
  const game = await gameView(h, gameId);
  const accept = game.orderDrawn ? undefined : keepsJoinOrder(game.players.length);
  const receipt = await send(h, h.hall.write.roll([gameId, keepMask], { account: key.account }));
  const requested = hallEvent(h, receipt, "RollRequested");
  const answer = await reveal(
    h,
    requested.sequenceNumber as bigint,
    randomForRoll(keepMask, dice, accept),
  );
  assert.deepEqual([...(hallEvent(h, answer, "DiceRolled").dice as number[])], [...dice]);
  return { receipt, requested };
}

describe("credit", () => {
  it("takes a native deposit into the caller's credit, and gives it back on withdraw", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const before = await hallBalance(h);
    const receipt = await send(
      h,
      h.hall.write.deposit([NATIVE, 5000n], { account: h.alice.account, value: 5000n }),
    );
    assert.deepEqual(
      { ...hallEvent(h, receipt, "Deposited") },
      { token: NATIVE, account: addressOf(h.alice), amount: 5000n },
    );
    assert.equal(await credits(h, NATIVE, h.alice), 5000n);
    assert.equal(await hallBalance(h), before + 5000n);
    await send(h, h.hall.write.withdraw([NATIVE], { account: h.alice.account }));
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
    assert.equal(await hallBalance(h), before);
  });

  it("refuses a native deposit whose value is not the amount", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.deposit([NATIVE, 5000n], { account: h.alice.account, value: 4999n }),
      h.hall,
      "WrongPayment",
      [4999n, 5000n],
    );
  });

  it("takes an allowed ERC-20 by transferFrom, and refuses a token the owner never listed", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    await send(h, h.hall.write.deposit([h.token.address, TOKEN_BET], { account: h.alice.account }));
    assert.equal(await credits(h, h.token.address, h.alice), TOKEN_BET);
    assert.equal(await hallBalance(h, h.token.address), TOKEN_BET);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.deposit([h.token.address, 1n], { account: h.alice.account, value: 1n }),
      h.hall,
      "WrongPayment",
      [1n, 0n],
    );
    const stray = await h.viem.deployContract("TestToken");
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.deposit([stray.address, 1n], { account: h.alice.account }),
      h.hall,
      "TokenNotAllowed",
      [stray.address],
    );
  });

  for (const kind of ["native", "ERC-20"] as const) {
    it(`pays a ${kind} bet to create and to join from credit`, async () => {
      const h = await networkHelpers.loadFixture(hallFixture);
      const token = kind === "native" ? NATIVE : h.token.address;
      const bet = kind === "native" ? BET : TOKEN_BET;
      for (const p of [h.alice, h.bob]) {
        await send(
          h,
          h.hall.write.deposit([token, bet + 3n], {
            account: p.account,
            value: token === NATIVE ? bet + 3n : 0n,
          }),
        );
      }
      const held = await hallBalance(h, token);
      const cfg = lobbyConfig({ token, bet });
      const created = await send(
        h,
        h.hall.write.createGameFromCredit([cfg], { account: h.alice.account }),
      );
      const gameId = hallEvent(h, created, "GameCreated").gameId as bigint;
      await send(h, h.hall.write.joinGameFromCredit([gameId], { account: h.bob.account }));
      assert.equal((await gameView(h, gameId)).status, STATUS.Running);
      assert.equal(await credits(h, token, h.alice), 3n);
      assert.equal(await credits(h, token, h.bob), 3n);
      // Nothing came in or went out: the credit became the escrow.
      assert.equal(await hallBalance(h, token), held);
    });

    it(`refuses a ${kind} bet from too little credit with the shortfall`, async () => {
      const h = await networkHelpers.loadFixture(hallFixture);
      const token = kind === "native" ? NATIVE : h.token.address;
      const bet = kind === "native" ? BET : TOKEN_BET;
      await send(
        h,
        h.hall.write.deposit([token, bet - 1n], {
          account: h.alice.account,
          value: token === NATIVE ? bet - 1n : 0n,
        }),
      );
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.createGameFromCredit([lobbyConfig({ token, bet })], {
          account: h.alice.account,
        }),
        h.hall,
        "InsufficientCredit",
        [token, bet, bet - 1n],
      );
      const { gameId } = await openLobby(h, h.bob, { token, bet });
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.joinGameFromCredit([gameId], { account: h.carol.account }),
        h.hall,
        "InsufficientCredit",
        [token, bet, 0n],
      );
    });
  }

  it("never falls back to credit when a paid createGame sends the wrong value", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    await send(h, h.hall.write.deposit([NATIVE, BET], { account: h.alice.account, value: BET }));
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.createGame([lobbyConfig()], { account: h.alice.account, value: 0n }),
      h.hall,
      "WrongPayment",
      [0n, BET],
    );
    assert.equal(await credits(h, NATIVE, h.alice), BET);
  });
});

describe("opening a session", () => {
  it("sends the key its gas, sets its fees aside and puts the rest into the player's credit", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const keyBefore = await h.publicClient.getBalance({ address: key.account.address });
    const held = await hallBalance(h);
    const grant = await grantFor(h, key, { keyGas: 1234n, feeAllowance: 900n });
    const receipt = await send(
      h,
      h.hall.write.openSession([grant, await consentTo(h, h.alice, grant)], {
        account: h.alice.account,
        value: 5000n,
      }),
    );
    assert.deepEqual(
      { ...hallEvent(h, receipt, "SessionOpened") },
      {
        player: addressOf(h.alice),
        key: addressOf(key),
        expiresAt: grant.expiresAt,
        feeAllowance: 900n,
        keyGas: 1234n,
      },
    );
    assert.equal(
      await h.publicClient.getBalance({ address: key.account.address }),
      keyBefore + 1234n,
    );
    assert.equal(await credits(h, NATIVE, h.alice), 5000n - 1234n - 900n);
    assert.equal(await hallBalance(h), held + 5000n - 1234n, "the fees set aside stay in the hall");
    assert.deepEqual(
      { ...(await h.hall.read.session([h.alice.account.address])) },
      { key: addressOf(key), expiresAt: grant.expiresAt, feeAllowance: 900n, active: true },
    );
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.alice));
  });

  it("sets aside from credit what the value does not cover, and refuses a shortfall", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    await send(h, h.hall.write.deposit([NATIVE, 700n], { account: h.alice.account, value: 700n }));
    const grant = await grantFor(h, key, { feeAllowance: 1000n });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession([grant, await consentTo(h, h.alice, grant)], {
        account: h.alice.account,
        value: 299n,
      }),
      h.hall,
      "InsufficientCredit",
      [NATIVE, 701n, 700n],
    );
    await send(
      h,
      h.hall.write.openSession([grant, await consentTo(h, h.alice, grant)], {
        account: h.alice.account,
        value: 300n,
      }),
    );
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, 1000n);
  });

  it("refuses fees beyond what a session holds (2^64 - 1 wei), and holds that much exactly", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const max = await h.hall.read.MAX_SESSION_ALLOWANCE();
    assert.equal(max, 2n ** 64n - 1n);
    const over = await grantFor(h, key, { feeAllowance: max + 1n });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession([over, await consentTo(h, h.alice, over)], {
        account: h.alice.account,
        value: max + 1n,
      }),
      h.hall,
      "SessionAllowanceTooLarge",
      [max + 1n, max],
    );
    const most = await grantFor(h, key, { feeAllowance: max });
    const receipt = await send(
      h,
      h.hall.write.openSession([most, await consentTo(h, h.alice, most)], {
        account: h.alice.account,
        value: max,
      }),
    );
    // What the event says is granted is what session() holds: nothing silently capped.
    assert.equal(hallEvent(h, receipt, "SessionOpened").feeAllowance, max);
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, max);
    await send(h, h.hall.write.revokeSession({ account: h.alice.account }));
    assert.equal(await credits(h, NATIVE, h.alice), max, "revoking returns the fees to credit");
  });

  it("refuses a grant past seven days, or one not in the future", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const grant = (expiresAt: bigint) => ({
      key: key.account.address,
      expiresAt,
      feeAllowance: 0n,
      keyGas: 0n,
    });
    const args = async (g: Grant) => [g, await consentTo(h, h.alice, g)] as const;
    const tooLong = (await now(h)) + BigInt(WEEK) + 100n;
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.openSession(await args(grant(tooLong)), { account: h.alice.account }),
      h.hall,
      "SessionTooLong",
    );
    const past = await now(h);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession(await args(grant(past)), { account: h.alice.account }),
      h.hall,
      "SessionExpired",
      [addressOf(key), past],
    );
    // Seven days from the block, to the second, is the longest allowed.
    const t = await now(h);
    const longest = await args(grant(t + 10n + BigInt(WEEK)));
    await networkHelpers.time.setNextBlockTimestamp(t + 10n);
    await send(h, h.hall.write.openSession(longest, { account: h.alice.account }));
    await networkHelpers.time.setNextBlockTimestamp(t + 20n);
    await send(h, h.hall.write.revokeSession({ account: h.alice.account }));
    const latest = t + 30n + BigInt(WEEK);
    const tooLate = await args(grant(latest + 1n));
    await networkHelpers.time.setNextBlockTimestamp(t + 30n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession(tooLate, { account: h.alice.account }),
      h.hall,
      "SessionTooLong",
      [latest + 1n, latest],
    );
  });

  it("refuses a zero key, the player itself, and a key another player holds, even with its consent", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    for (const bad of [zeroAddress, h.alice.account.address]) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.openSession([await grantFor(h, bad), "0x"], { account: h.alice.account }),
        h.hall,
        "InvalidSessionKey",
        [bad === zeroAddress ? zeroAddress : addressOf(h.alice)],
      );
    }
    await openSession(h, h.bob, key, { expiresIn: 600n, feeAllowance: 50n });
    // The key agrees to alice too: still bob's while his grant stands, active or expired.
    const toAlice = await grantFor(h, key);
    const aliceArgs = [toAlice, await consentTo(h, h.alice, toAlice)] as const;
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession(aliceArgs, { account: h.alice.account, value: ALLOWANCE }),
      h.hall,
      "InvalidSessionKey",
      [addressOf(key)],
    );
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.bob));
    await networkHelpers.time.increase(601);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession(aliceArgs, { account: h.alice.account, value: ALLOWANCE }),
      h.hall,
      "InvalidSessionKey",
      [addressOf(key)],
    );
    // Once bob closes it (its fees back in his credit), the key may agree to alice.
    await send(h, h.hall.write.revokeSession({ account: h.bob.account }));
    assert.equal(await credits(h, NATIVE, h.bob), 50n);
    await openSession(h, h.alice, key);
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.alice));
    // It is alice's now: bob opening and revoking another session leaves her grant alone.
    assert.equal((await h.hall.read.session([h.bob.account.address])).key, zeroAddress);
    await openSession(h, h.bob, keysOf(h)[1]);
    await send(h, h.hall.write.revokeSession({ account: h.bob.account }));
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.alice));
    assert.equal((await h.hall.read.session([h.alice.account.address])).key, addressOf(key));
  });

  it("refuses a payment below the key's gas", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const grant = await grantFor(h, key, { keyGas: 100n, feeAllowance: 0n });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession([grant, await consentTo(h, h.alice, grant)], {
        account: h.alice.account,
        value: 99n,
      }),
      h.hall,
      "WrongPayment",
      [99n, 100n],
    );
  });

  it("never names a contract (it cannot sign), and the player's money stays theirs", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const refuser = await h.viem.deployContract("HostileEthRejectingPlayer", [h.hall.address]);
    const grant = await grantFor(h, refuser.address, { keyGas: 50n, feeAllowance: 0n });
    // The best alice can bring is a signature of her own.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.openSession([grant, await consentOf(h, h.alice, h.alice, grant)], {
        account: h.alice.account,
        value: 1000n,
      }),
      h.hall,
      "InvalidSessionConsent",
      [getAddress(refuser.address), addressOf(h.alice)],
    );
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
  });

  it("creates a native game and opens the session in one transaction", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key, bobKey] = keysOf(h);
    const keyBefore = await h.publicClient.getBalance({ address: key.account.address });
    const held = await hallBalance(h);
    const grant = await grantFor(h, key, { keyGas: 700n, feeAllowance: 2000n });
    const receipt = await send(
      h,
      h.hall.write.createGameWithSession(
        [lobbyConfig(), grant, await consentTo(h, h.alice, grant)],
        { account: h.alice.account, value: BET + 700n + 5000n },
      ),
    );
    const gameId = hallEvent(h, receipt, "GameCreated").gameId as bigint;
    hallEvent(h, receipt, "SessionOpened");
    assert.equal(await credits(h, NATIVE, h.alice), 3000n);
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, 2000n);
    assert.equal(
      await h.publicClient.getBalance({ address: key.account.address }),
      keyBefore + 700n,
    );
    assert.equal(await hallBalance(h), held + BET + 5000n);
    // The join the same way; too little for the bet and the key's gas is refused.
    const bobGrant = await grantFor(h, bobKey, { keyGas: 700n, feeAllowance: 0n });
    const bobConsent = await consentTo(h, h.bob, bobGrant);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGameWithSession([gameId, bobGrant, bobConsent], {
        account: h.bob.account,
        value: BET + 699n,
      }),
      h.hall,
      "WrongPayment",
      [BET + 699n, BET + 700n],
    );
    await send(
      h,
      h.hall.write.joinGameWithSession([gameId, bobGrant, bobConsent], {
        account: h.bob.account,
        value: BET + 700n,
      }),
    );
    assert.equal((await gameView(h, gameId)).status, STATUS.Running);
    assert.equal(await credits(h, NATIVE, h.bob), 0n);
    assert.equal(await h.hall.read.sessionPlayer([bobKey.account.address]), addressOf(h.bob));
  });

  it("creates an ERC-20 game with the bet by transferFrom and the value for the session", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key, bobKey] = keysOf(h);
    const cfg = lobbyConfig({ token: h.token.address });
    const grant = await grantFor(h, key, { keyGas: 300n, feeAllowance: 0n });
    const receipt = await send(
      h,
      h.hall.write.createGameWithSession([cfg, grant, await consentTo(h, h.alice, grant)], {
        account: h.alice.account,
        value: 300n + 4000n,
      }),
    );
    const gameId = hallEvent(h, receipt, "GameCreated").gameId as bigint;
    assert.equal(await hallBalance(h, h.token.address), TOKEN_BET);
    assert.equal(await credits(h, NATIVE, h.alice), 4000n);
    assert.equal(await credits(h, h.token.address, h.alice), 0n);
    const bobGrant = await grantFor(h, bobKey, { feeAllowance: 0n });
    await send(
      h,
      h.hall.write.joinGameWithSession([gameId, bobGrant, await consentTo(h, h.bob, bobGrant)], {
        account: h.bob.account,
      }),
    );
    assert.equal(await hallBalance(h, h.token.address), 2n * TOKEN_BET);
    assert.equal((await gameView(h, gameId)).status, STATUS.Running);
  });

  it("replaces the old key: it can do nothing more, and its unspent fees go back to credit", async () => {
    const h = await keyedFixture();
    const { gameId, order, key, otherKey } = h;
    const credit = await credits(h, NATIVE, h.alice);
    // The new session's fees come out of the old one's, returned to credit first: no value needed.
    const receipt = await openSession(h, h.alice, otherKey, { feeAllowance: 7n, value: 0n });
    assert.deepEqual(
      { ...hallEvent(h, receipt, "SessionRevoked") },
      { player: addressOf(h.alice), key: addressOf(key) },
    );
    assert.equal(hallEvent(h, receipt, "Credited").amount, ALLOWANCE);
    assert.equal(await credits(h, NATIVE, h.alice), credit + ALLOWANCE - 7n);
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), zeroAddress);
    assert.equal(order[0], h.alice);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 0], { account: key.account }),
      h.hall,
      "NotInGame",
      [gameId, addressOf(key)],
    );
  });
});

describe("a session key plays", () => {
  it("rolls (the first roll too), scores and rolls again, the fees from those set aside for it", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    const creditBefore = await credits(h, NATIVE, h.alice);
    const held = await hallBalance(h);
    const { receipt, requested } = await keyRoll(h, gameId, key, 0, [3, 3, 3, 1, 2]);
    assert.ok(addressOf(h.alice) === requested.player, "the roll is alice's");
    assert.equal(hallEvents(h, receipt, "Credited").length, 0);
    assert.equal(await credits(h, NATIVE, h.alice), creditBefore, "the credit is not touched");
    assert.equal(
      (await h.hall.read.session([h.alice.account.address])).feeAllowance,
      ALLOWANCE - PRICED_ROLL_FEE,
    );
    assert.equal(await hallBalance(h), held - PRICED_ROLL_FEE, "the fee went to Entropy");
    await keyRoll(h, gameId, key, 0b00111, [3, 3, 3, 3, 2]);
    const scored = await send(h, h.hall.write.score([gameId, 2], { account: key.account }));
    assert.equal(hallEvent(h, scored, "Scored").player, addressOf(h.alice));
    assert.equal((await playerView(h, gameId, h.alice)).boxScores[2], 12n);
    assert.equal(
      (await h.hall.read.session([h.alice.account.address])).feeAllowance,
      ALLOWANCE - 2n * PRICED_ROLL_FEE,
    );
    // Bob plays by hand beside it.
    await rollWith(h, gameId, h.bob, 0, [1, 1, 2, 2, 2]);
    await scoreBox(h, gameId, h.bob, 12);
  });

  it("asks again for a refused roll, paying from its session only for the accepted request", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    const feesLeft = async () =>
      (await h.hall.read.session([h.alice.account.address])).feeAllowance;
    await send(h, h.pricedEntropy!.write.setMode([REFUSE_REQUEST]));
    const refused = await send(h, h.hall.write.roll([gameId, 0], { account: key.account }));
    assert.equal(hallEvent(h, refused, "RollRefused").player, addressOf(h.alice));
    assert.equal(await feesLeft(), ALLOWANCE, "a refusal spends nothing");
    await send(h, h.pricedEntropy!.write.setMode([ANSWER]));
    await networkHelpers.time.increase(1);
    const again = await send(h, h.hall.write.roll([gameId, 0], { account: key.account }));
    assert.equal(hallEvent(h, again, "RollRequested").player, addressOf(h.alice));
    assert.equal((await gameView(h, gameId)).entropyAttempts, 2);
    assert.equal(await feesLeft(), ALLOWANCE - PRICED_ROLL_FEE);
    // An accepted request is never replaced, by a key either.
    await networkHelpers.time.increase(DEFAULT_ENTROPY_TIMEOUT);
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.roll([gameId, 0], { account: key.account }),
      h.hall,
      "RollPending",
    );
  });

  it("claims the opponent's timeout", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    await send(h, h.hall.write.score([gameId, 0], { account: key.account }));
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    const receipt = await send(h, h.hall.write.claimTimeout([gameId], { account: key.account }));
    assert.equal(hallEvent(h, receipt, "PlayerForfeited").player, addressOf(h.bob));
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
  });

  it("pays its player's winnings to the player's own address, and nowhere else", async () => {
    const h = await keyedFixture();
    const { gameId, key, bobKey } = h;
    await openSession(h, h.bob, bobKey);
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    await send(h, h.hall.write.score([gameId, 0], { account: key.account }));
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: key.account }));
    const credit = await credits(h, NATIVE, h.alice);
    assert.ok(credit > BET);
    // The session's unspent fees come with the coin.
    const fees = (await h.hall.read.session([h.alice.account.address])).feeAllowance;
    assert.equal(fees, ALLOWANCE - PRICED_ROLL_FEE);
    // Bob's key may not pay out alice, nor may anyone else.
    for (const w of [bobKey, h.stranger, h.bob]) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.withdrawFor([h.alice.account.address, NATIVE], { account: w.account }),
        h.hall,
        "NotSessionKey",
        [addressOf(w)],
      );
    }
    const aliceBefore = await h.publicClient.getBalance({ address: h.alice.account.address });
    const keyBefore = await h.publicClient.getBalance({ address: key.account.address });
    const receipt = await send(
      h,
      h.hall.write.withdrawFor([h.alice.account.address, NATIVE], { account: key.account }),
    );
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    assert.deepEqual(
      { ...hallEvent(h, receipt, "Withdrawn") },
      { token: NATIVE, account: addressOf(h.alice), amount: credit + fees },
    );
    assert.equal(
      await h.publicClient.getBalance({ address: h.alice.account.address }),
      aliceBefore + credit + fees,
    );
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, 0n);
    assert.equal(
      await h.publicClient.getBalance({ address: key.account.address }),
      keyBefore - gasPaid,
    );
    assert.equal(await credits(h, NATIVE, h.alice), 0n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawFor([h.alice.account.address, NATIVE], { account: key.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.alice)],
    );
    // Its own withdraw is its own (empty) credit, never its player's.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdraw([NATIVE], { account: bobKey.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(bobKey)],
    );
  });
});

describe("a session key never", () => {
  it("acts after its expiry", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    const { expiresAt } = await h.hall.read.session([h.alice.account.address]);
    await networkHelpers.time.increaseTo(expiresAt);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.score([gameId, 0], { account: key.account }),
      h.hall,
      "SessionExpired",
      [addressOf(key), expiresAt],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 1], { account: key.account }),
      h.hall,
      "SessionExpired",
      [addressOf(key), expiresAt],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawFor([h.alice.account.address, NATIVE], { account: key.account }),
      h.hall,
      "NotSessionKey",
      [addressOf(key)],
    );
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), zeroAddress);
    // The session still shows, ended, so the app can say so; its fees are alice's to take back.
    assert.deepEqual(
      { ...(await h.hall.read.session([h.alice.account.address])) },
      {
        key: addressOf(key),
        expiresAt,
        feeAllowance: ALLOWANCE - PRICED_ROLL_FEE,
        active: false,
      },
    );
    const credit = await credits(h, NATIVE, h.alice);
    await send(h, h.hall.write.revokeSession({ account: h.alice.account }));
    assert.equal(await credits(h, NATIVE, h.alice), credit + ALLOWANCE - PRICED_ROLL_FEE);
    assert.deepEqual(
      { ...(await h.hall.read.session([h.alice.account.address])) },
      { key: zeroAddress, expiresAt: 0n, feeAllowance: 0n, active: false },
    );
  });

  it("draws the order after its expiry, nor rolls for free when Entropy is free", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const { gameId } = await startGame(h, { seats: 2 });
    await openSession(h, h.alice, key, { expiresIn: 120n, feeAllowance: 500n });
    // MockEntropy charges nothing: the key's roll spends nothing.
    const credit = await credits(h, NATIVE, h.alice);
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    assert.equal(await credits(h, NATIVE, h.alice), credit);
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, 500n);
    const other = await startGame(h, { seats: 2, players: [h.alice, h.carol] });
    const { expiresAt } = await h.hall.read.session([h.alice.account.address]);
    await networkHelpers.time.increaseTo(expiresAt);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([other.gameId, 0], { account: key.account }),
      h.hall,
      "SessionExpired",
      [addressOf(key), expiresAt],
    );
    // Revoking what is already over, or nothing at all, changes nothing and says nothing.
    const receipt2 = await send(h, h.hall.write.revokeSession({ account: h.carol.account }));
    assert.equal(hallEvents(h, receipt2, "SessionRevoked").length, 0);
  });

  it("acts after its player revoked it", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    const credit = await credits(h, NATIVE, h.alice);
    const receipt = await send(h, h.hall.write.revokeSession({ account: h.alice.account }));
    assert.deepEqual(
      { ...hallEvent(h, receipt, "SessionRevoked") },
      { player: addressOf(h.alice), key: addressOf(key) },
    );
    assert.equal(await credits(h, NATIVE, h.alice), credit + ALLOWANCE - PRICED_ROLL_FEE);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.score([gameId, 0], { account: key.account }),
      h.hall,
      "NotYourTurn",
      [gameId, addressOf(h.alice)],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.withdrawFor([h.alice.account.address, NATIVE], { account: key.account }),
      h.hall,
      "NotSessionKey",
      [addressOf(key)],
    );
    // Alice plays on herself.
    await scoreBox(h, gameId, h.alice, 0);
  });

  it("spends beyond the fees set aside for it, nor its player's credit", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const [key] = keysOf(h);
    const { gameId } = await startGame(h, { seats: 2 });
    await openSession(h, h.alice, key, {
      feeAllowance: PRICED_ROLL_FEE - 1n,
      value: PRICED_ROLL_FEE * 5n,
    });
    // Four fees' worth in credit beside it: never the key's.
    assert.equal(await credits(h, NATIVE, h.alice), PRICED_ROLL_FEE * 4n + 1n);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 0], { account: key.account }),
      h.hall,
      "SessionAllowanceExceeded",
      [addressOf(h.alice), PRICED_ROLL_FEE, PRICED_ROLL_FEE - 1n],
    );
  });

  it("moves for its player with a roll that sends money: a call that pays is the caller's own", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 0], { account: key.account, value: PRICED_ROLL_FEE }),
      h.hall,
      "NotInGame",
      [gameId, addressOf(key)],
    );
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, ALLOWANCE);
  });

  it("plays for its player out of turn, or in a game its player is not in", async () => {
    const h = await keyedFixture();
    const { gameId, key, bobKey } = h;
    await openSession(h, h.bob, bobKey);
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    // Bob's key on alice's turn.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.score([gameId, 0], { account: bobKey.account }),
      h.hall,
      "NotYourTurn",
      [gameId, addressOf(h.alice)],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([gameId, 1], { account: bobKey.account }),
      h.hall,
      "NotYourTurn",
      [gameId, addressOf(h.alice)],
    );
    // A game of carol and dave: alice's key can neither draw its order nor ask again there.
    const other = await startGame(h, { seats: 2, players: [h.carol, h.dave] });
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([other.gameId, 0], { account: key.account }),
      h.hall,
      "NotInGame",
      [other.gameId, addressOf(key)],
    );
    // Anyone may ask again for a refused roll there, the key too, but as itself: never on alice's credit.
    await send(h, h.pricedEntropy!.write.setMode([REFUSE_REQUEST]));
    await send(
      h,
      h.hall.write.roll([other.gameId, 0], { account: h.carol.account, value: PRICED_ROLL_FEE }),
    );
    await send(h, h.pricedEntropy!.write.setMode([ANSWER]));
    await networkHelpers.time.increase(1);
    const credit = await credits(h, NATIVE, h.alice);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.roll([other.gameId, 0], { account: key.account }),
      h.hall,
      "InsufficientRollFee",
      [0n, PRICED_ROLL_FEE],
    );
    const own = await send(
      h,
      h.hall.write.roll([other.gameId, 0], { account: key.account, value: PRICED_ROLL_FEE }),
    );
    assert.equal(hallEvent(h, own, "RollRequested").player, addressOf(key));
    assert.equal(await credits(h, NATIVE, h.alice), credit);
  });

  it("leaves, cancels, joins or creates for its player", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key] = keysOf(h);
    const { gameId } = await openLobby(h, h.alice, { seats: 3 });
    await openSession(h, h.alice, key, { value: BET * 2n, feeAllowance: 0n });
    // Every lobby move acts for the caller alone: the key is nobody's seat.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.leaveGame([gameId], { account: key.account }),
      h.hall,
      "NotInGame",
      [gameId, addressOf(key)],
    );
    const { clock } = { clock: (await gameView(h, gameId)).deadline };
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.cancelGame([gameId], { account: key.account }),
      h.hall,
      "JoinWindowStillOpen",
      [gameId, clock],
    );
    // From credit it would pay with its own (empty) credit, never alice's.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.joinGameFromCredit([gameId], { account: key.account }),
      h.hall,
      "InsufficientCredit",
      [NATIVE, BET, 0n],
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.createGameFromCredit([lobbyConfig()], { account: key.account }),
      h.hall,
      "InsufficientCredit",
      [NATIVE, BET, 0n],
    );
    assert.equal(await credits(h, NATIVE, h.alice), BET * 2n);
    assert.equal((await gameView(h, gameId)).players.length, 1);
  });

  it("locks out an address that agreed to be someone's key from playing as itself", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const { gameId } = await startGame(h, { seats: 2 });
    // Alice agrees to be carol's key (for a minute): her own moves stay her own.
    await openSession(h, h.carol, h.alice, { expiresIn: 60n, feeAllowance: 0n });
    await rollWith(h, gameId, h.alice, 0, [1, 2, 3, 4, 6]);
    await scoreBox(h, gameId, h.alice, 0);
    await rollWith(h, gameId, h.bob, 0, [1, 2, 3, 4, 6]);
    await scoreBox(h, gameId, h.bob, 0);
    // Once carol's session is over, alice still plays and pays as herself.
    await networkHelpers.time.increase(61);
    await rollWith(h, gameId, h.alice, 0, [2, 2, 3, 4, 6]);
    await scoreBox(h, gameId, h.alice, 1);
    await send(
      h,
      h.hall.write.createGame([lobbyConfig()], { account: h.alice.account, value: BET }),
    );
  });

  it("changes, extends or ends its own session", async () => {
    const h = await keyedFixture();
    const { key, otherKey } = h;
    const before = await h.hall.read.session([h.alice.account.address]);
    // What a key opens or revokes is a session of its own (as a player), never its player's.
    const grant = await grantFor(h, otherKey, { expiresIn: BigInt(WEEK), feeAllowance: 0n });
    await send(
      h,
      h.hall.write.openSession([grant, await consentOf(h, otherKey, key, grant)], {
        account: key.account,
      }),
    );
    await send(h, h.hall.write.revokeSession({ account: key.account }));
    assert.deepEqual(await h.hall.read.session([h.alice.account.address]), before);
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.alice));
  });
});

describe("K-1: no address is named as a key without its own signature", () => {
  it("the keeper's (or anyone's) address cannot be named: not with the namer's signature, a bad one, or one for another player or hall", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const keeper = h.wallets[8];
    const grant = await grantFor(h, keeper, { feeAllowance: 0n });
    const tryName = (consent: `0x${string}`) =>
      h.hall.write.openSession([grant, consent], { account: h.carol.account });
    // Carol signs for the keeper herself.
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      tryName(await consentOf(h, h.carol, h.carol, grant)),
      h.hall,
      "InvalidSessionConsent",
      [addressOf(keeper), addressOf(h.carol)],
    );
    // No signature, or a malformed one.
    for (const junk of ["0x", `0x${"11".repeat(65)}`] as const) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        tryName(junk),
        h.hall,
        "InvalidSessionConsent",
        [addressOf(keeper), zeroAddress],
      );
    }
    // The keeper's real consent, given to alice, replayed by carol: it names alice, not carol.
    const toAlice = await consentOf(h, keeper, h.alice, grant);
    await h.viem.assertions.revertWithCustomError(
      tryName(toAlice),
      h.hall,
      "InvalidSessionConsent",
    );
    // A consent for another grant (a longer session) does not open this one.
    const longer = { ...grant, expiresAt: grant.expiresAt + 1n };
    await h.viem.assertions.revertWithCustomError(
      tryName(await consentOf(h, keeper, h.carol, longer)),
      h.hall,
      "InvalidSessionConsent",
    );
    // A consent for another hall (same chain, same everything else) is no consent here.
    const otherHall = await h.viem.deployContract("DiceHall", [
      h.pricedEntropy!.address,
      h.owner.account.address,
    ]);
    const elsewhere = await consentOf(
      { ...h, hall: otherHall } as unknown as Hall,
      keeper,
      h.carol,
      grant,
    );
    await h.viem.assertions.revertWithCustomError(
      tryName(elsewhere),
      h.hall,
      "InvalidSessionConsent",
    );
    assert.equal(await h.hall.read.sessionPlayer([keeper.account.address]), zeroAddress);
    // With its own consent to carol, it is carol's key.
    await send(h, tryName(await consentOf(h, keeper, h.carol, grant)));
    assert.equal(await h.hall.read.sessionPlayer([keeper.account.address]), addressOf(h.carol));
    // The domain the key signs in is this hall on this chain (ERC-5267).
    const [, name, version, chainId, verifyingContract] = await h.hall.read.eip712Domain();
    assert.deepEqual(
      [name, version, chainId, verifyingContract],
      ["DiceHall", "1", BigInt(await h.publicClient.getChainId()), getAddress(h.hall.address)],
    );
  });

  it("a paid retry from an address that is the trailing player's key still goes through, as itself", async () => {
    const h = await networkHelpers.loadFixture(pricedHallFixture);
    const keeper = h.wallets[8];
    const { gameId, order } = await startGame(h, { seats: 2 });
    const [mover, trailing] = order;
    // The trailing player's key is the keeper's address (a leaked key, or one the keeper agreed to).
    await openSession(h, trailing, keeper, { feeAllowance: PRICED_ROLL_FEE * 3n });
    await send(h, h.pricedEntropy!.write.setMode([REFUSE_REQUEST]));
    await send(
      h,
      h.hall.write.roll([gameId, 0], { account: mover.account, value: PRICED_ROLL_FEE }),
    );
    await send(h, h.pricedEntropy!.write.setMode([ANSWER]));
    await networkHelpers.time.increase(1);
    // The keeper pays: its retry is its own, never the trailing player's key's.
    const receipt = await send(
      h,
      h.hall.write.roll([gameId, 0], { account: keeper.account, value: PRICED_ROLL_FEE }),
    );
    assert.equal(hallEvent(h, receipt, "RollRequested").player, addressOf(keeper));
    assert.equal(
      (await h.hall.read.session([trailing.account.address])).feeAllowance,
      PRICED_ROLL_FEE * 3n,
      "the trailing player's fees are untouched",
    );
    const game = await gameView(h, gameId);
    assert.notEqual(game.pendingSequence, 0n);
    const answer = await reveal(h, game.pendingSequence, randomForRoll(0, [1, 2, 3, 4, 6]));
    assert.equal(hallEvent(h, answer, "DiceRolled").player, addressOf(mover), "the mover's dice");
  });
});

describe("S-5: no one can name another's key; a squat fails", () => {
  it("after alice's session expires, the squatter can name her key neither with her consent nor his own; her next session works", async () => {
    const h = await networkHelpers.loadFixture(hallFixture);
    const [key, freshKey] = keysOf(h);
    const grant = await grantFor(h, key, { expiresIn: 600n, feeAllowance: 0n });
    const aliceConsent = await consentTo(h, h.alice, grant);
    // In the mempool: erin copies alice's openSession and sends it as her own, first.
    await h.viem.assertions.revertWithCustomError(
      h.hall.write.openSession([grant, aliceConsent], { account: h.erin.account }),
      h.hall,
      "InvalidSessionConsent",
    );
    await send(h, h.hall.write.openSession([grant, aliceConsent], { account: h.alice.account }));
    await networkHelpers.time.increase(601);
    assert.equal((await h.hall.read.session([h.alice.account.address])).active, false);
    // The key is public (SessionOpened): erin tries to renew it for herself. While alice's grant stands
    // (expired, not closed) it is hers; once she closes it, erin still has no consent to bring.
    const squat = await grantFor(h, key, { expiresIn: BigInt(WEEK), feeAllowance: 0n });
    const attempts = [aliceConsent, await consentOf(h, h.erin, h.erin, squat)];
    for (const consent of attempts) {
      await h.viem.assertions.revertWithCustomErrorWithArgs(
        h.hall.write.openSession([squat, consent], { account: h.erin.account }),
        h.hall,
        "InvalidSessionKey",
        [addressOf(key)],
      );
    }
    await send(h, h.hall.write.revokeSession({ account: h.alice.account }));
    for (const consent of attempts) {
      await h.viem.assertions.revertWithCustomError(
        h.hall.write.openSession([squat, consent], { account: h.erin.account }),
        h.hall,
        "InvalidSessionConsent",
      );
    }
    assert.equal((await h.hall.read.session([h.erin.account.address])).key, zeroAddress);
    // Alice's next session, with a fresh key, or the same key again: one transaction each.
    await openSession(h, h.alice, freshKey);
    assert.equal(await h.hall.read.sessionPlayer([freshKey.account.address]), addressOf(h.alice));
    await openSession(h, h.alice, key);
    assert.equal(await h.hall.read.sessionPlayer([key.account.address]), addressOf(h.alice));
  });
});

describe("the hall keeper pays what a finished game left its player, to the player and nowhere else", () => {
  it("payOut sends a player's winnings to the player's own address once the game is over; the caller gets nothing, the deposit stays", async () => {
    const h = await keyedFixture();
    const { gameId, key } = h;
    const keeper = h.wallets[8];
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
      h.hall,
      "GameNotOver",
      [gameId, STATUS.Running],
    );
    await keyRoll(h, gameId, key, 0, [1, 2, 3, 4, 6]);
    await send(h, h.hall.write.score([gameId, 0], { account: key.account }));
    await networkHelpers.time.increase(MOVE_TIMEOUT + 1);
    await send(h, h.hall.write.claimTimeout([gameId], { account: key.account }));
    assert.equal((await gameView(h, gameId)).status, STATUS.Finished);
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.payOut([gameId, h.carol.account.address, NATIVE], { account: keeper.account }),
      h.hall,
      "NotInGame",
      [gameId, addressOf(h.carol)],
    );
    // Alice's credit holds her winnings and ten fees she put in herself: only the winnings are the game's.
    const deposited = PRICED_ROLL_FEE * 10n;
    const winnings = (await credits(h, NATIVE, h.alice)) - deposited;
    assert.equal(
      await h.hall.read.payOutAmount([gameId, h.alice.account.address, NATIVE]),
      winnings,
    );
    const aliceBefore = await h.publicClient.getBalance({ address: h.alice.account.address });
    const keeperBefore = await h.publicClient.getBalance({ address: keeper.account.address });
    const receipt = await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    // The session was opened on its own and is still active: its fees stay for its key; the deposit stays too.
    assert.deepEqual(
      { ...hallEvent(h, receipt, "Withdrawn") },
      { token: NATIVE, account: addressOf(h.alice), amount: winnings },
    );
    assert.equal(
      await h.publicClient.getBalance({ address: h.alice.account.address }),
      aliceBefore + winnings,
    );
    assert.equal(
      await h.publicClient.getBalance({ address: keeper.account.address }),
      keeperBefore - receipt.gasUsed * receipt.effectiveGasPrice,
    );
    assert.equal(await credits(h, NATIVE, keeper), 0n);
    assert.equal(await credits(h, NATIVE, h.alice), deposited);
    assert.equal(
      (await h.hall.read.session([h.alice.account.address])).feeAllowance,
      ALLOWANCE - PRICED_ROLL_FEE,
    );
    await h.viem.assertions.revertWithCustomErrorWithArgs(
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
      h.hall,
      "NothingToWithdraw",
      [NATIVE, addressOf(h.alice)],
    );
    // Once the session has expired its unspent fees come too.
    const { expiresAt } = await h.hall.read.session([h.alice.account.address]);
    await networkHelpers.time.increaseTo(expiresAt);
    const late = await send(
      h,
      h.hall.write.payOut([gameId, h.alice.account.address, NATIVE], { account: keeper.account }),
    );
    assert.equal(hallEvent(h, late, "Withdrawn").amount, ALLOWANCE - PRICED_ROLL_FEE);
    // The session is over and cleared; the deposit is still hers in the hall.
    assert.equal((await h.hall.read.session([h.alice.account.address])).feeAllowance, 0n);
    assert.equal(await credits(h, NATIVE, h.alice), deposited);
  });
});
