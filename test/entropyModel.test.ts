import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import {
  encodeErrorResult,
  getAddress,
  keccak256,
  toHex,
  type Hex,
  type TransactionReceipt,
} from "viem";
import type { NetworkConnection } from "hardhat/types/network";
import { readFileSync } from "node:fs";
import { entropyBacklogAbi } from "@dicehall/core/contract/revelations.ts";
import {
  MODEL_DEFAULT_GAS_LIMIT,
  MODEL_PROVIDER_FEE,
  MODEL_PYTH_FEE,
  advanceTx,
  deployEntropyModel,
  hashChain,
  olderRequestsIn,
  randomNumberOf,
  registerProvider,
  requestWithoutCallback,
  requestsIn,
  revealRequest,
  revealTx,
  revealedIn,
  revelationFor,
} from "../scripts/lib/entropyModel.ts";

/**
 * Our Entropy model on its own (contracts/test/EntropyModel.sol): fees, sequence numbers per
 * provider, the hash chain checked on reveal, the chain's end, maxNumHashes, and the callback run
 * under the request's gas limit with its failure and retry.
 */

const connection = await network.create();
const { viem, networkHelpers } = connection;

const STATUS = { None: 0, NotStarted: 1, InProgress: 2, Failed: 3 } as const;
const MODE = { Keep: 0, Revert: 1, Heavy: 2 } as const;

async function modelFixture({ viem }: NetworkConnection) {
  const wallets = await viem.getWalletClients();
  const [owner, alice, stranger] = wallets;
  const provider = wallets[9];
  const otherProvider = wallets[8];
  const model = await deployEntropyModel(viem, provider);
  const consumer = await viem.deployContract("ScriptedEntropyConsumer", [model.address]);
  const publicClient = await viem.getPublicClient();
  return { model, consumer, provider, otherProvider, owner, alice, stranger, publicClient };
}
type Fixture = Awaited<ReturnType<typeof modelFixture>>;

async function fixture(): Promise<Fixture> {
  return networkHelpers.loadFixture(modelFixture);
}

async function mined(f: Fixture, hash: Promise<Hex> | Hex): Promise<TransactionReceipt> {
  const receipt = await f.publicClient.waitForTransactionReceipt({ hash: await hash });
  assert.equal(receipt.status, "success");
  return receipt;
}

const addressOf = (w: { account: { address: string } }) => getAddress(w.account.address);

/** The consumer asks `provider` (the model's default unless told) and pays the fee it is quoted. */
async function ask(
  f: Fixture,
  o: { provider?: string; gasLimit?: number; user?: Hex; extra?: bigint } = {},
): Promise<{ sequenceNumber: bigint; receipt: TransactionReceipt }> {
  const provider = getAddress(o.provider ?? f.provider.account.address);
  const gasLimit = o.gasLimit ?? MODEL_DEFAULT_GAS_LIMIT;
  const fee = await f.model.contract.read.getFeeV2([provider, gasLimit]);
  const receipt = await mined(
    f,
    f.consumer.write.request([provider, o.user ?? keccak256(toHex("user")), gasLimit], {
      value: fee + (o.extra ?? 0n),
    }),
  );
  const [request] = requestsIn(f.model, receipt);
  return { sequenceNumber: request.sequenceNumber, receipt };
}

function requestTx(f: Fixture, value: bigint, gasLimit = MODEL_DEFAULT_GAS_LIMIT) {
  return f.consumer.write.request([f.provider.account.address, keccak256("0x01"), gasLimit], {
    value,
  });
}

describe("EntropyModel: fees", () => {
  it("charges the provider's fee plus the protocol's, and scales the provider's with the gas limit", async () => {
    const f = await fixture();
    const provider = f.provider.account.address;
    assert.equal(await f.model.contract.read.getFeeV2(), MODEL_PROVIDER_FEE + MODEL_PYTH_FEE);
    assert.equal(
      await f.model.contract.read.getFeeV2([provider, 50_000]),
      MODEL_PROVIDER_FEE + MODEL_PYTH_FEE,
      "below the default limit the default applies",
    );
    // 250 000 gas is 2.5 times the 100 000 default; 241 000 rounds up to 250 000.
    for (const limit of [250_000, 241_000]) {
      assert.equal(
        await f.model.contract.read.getFeeV2([provider, limit]),
        (MODEL_PROVIDER_FEE * 25n) / 10n + MODEL_PYTH_FEE,
      );
    }
    await f.publicClient.waitForTransactionReceipt({
      hash: await f.model.contract.write.setPythFee([7n]),
    });
    assert.equal(await f.model.contract.read.getFeeV2(), MODEL_PROVIDER_FEE + 7n);
    await viem.assertions.revertWithCustomErrorWithArgs(
      f.model.contract.write.setPythFee([1n], { account: f.alice.account }),
      f.model.contract,
      "NotOwner",
      [addressOf(f.alice)],
    );
    await viem.assertions.revertWithCustomError(
      f.model.contract.read.getFeeV2([addressOf(f.stranger), 100_000]),
      f.model.contract,
      "NoSuchProvider",
    );
  });

  it("refuses a short payment, keeps an overpayment, and pays the provider when it reveals", async () => {
    const f = await fixture();
    const fee = MODEL_PROVIDER_FEE + MODEL_PYTH_FEE;
    await viem.assertions.revertWithCustomError(
      requestTx(f, fee - 1n),
      f.model.contract,
      "InsufficientFee",
    );
    const balance = await f.publicClient.getBalance({ address: f.model.address });
    const { sequenceNumber } = await ask(f, { extra: 5n });
    assert.equal(
      await f.publicClient.getBalance({ address: f.model.address }),
      balance + fee + 5n,
      "nothing is sent back",
    );
    assert.equal(await f.model.contract.read.getAccruedPythFees(), MODEL_PYTH_FEE + 5n);
    let info = await f.model.contract.read.getProviderInfoV2([f.provider.account.address]);
    assert.equal(info.accruedFeesInWei, 0n, "held until the request is revealed");
    await revealRequest(f.model, f.provider.account.address, sequenceNumber);
    info = await f.model.contract.read.getProviderInfoV2([f.provider.account.address]);
    assert.equal(info.accruedFeesInWei, MODEL_PROVIDER_FEE);
    // The provider takes its fees out.
    await mined(
      f,
      f.model.contract.write.withdraw([MODEL_PROVIDER_FEE], { account: f.provider.account }),
    );
    info = await f.model.contract.read.getProviderInfoV2([f.provider.account.address]);
    assert.equal(info.accruedFeesInWei, 0n);
  });
});

describe("EntropyModel: sequence numbers and the hash chain", () => {
  it("numbers each provider's requests on their own, from the one after its commitment", async () => {
    const f = await fixture();
    await registerProvider(f.model, f.otherProvider, { fee: 1n });
    const other = addressOf(f.otherProvider);
    assert.equal((await ask(f)).sequenceNumber, 1n);
    assert.equal((await ask(f)).sequenceNumber, 2n);
    assert.equal((await ask(f, { provider: other })).sequenceNumber, 1n);
    assert.equal((await ask(f)).sequenceNumber, 3n);
    assert.equal((await ask(f, { provider: other })).sequenceNumber, 2n);
    const info = await f.model.contract.read.getProviderInfoV2([other]);
    assert.equal(info.sequenceNumber, 3n);
    assert.equal(info.feeInWei, 1n);
    // The same sequence number of two providers are two requests, each delivered its own number.
    await revealRequest(f.model, other, 2n);
    assert.equal(await f.consumer.read.lastProvider(), other);
    assert.equal(
      await f.consumer.read.lastRandomNumber(),
      await randomNumberOf(f.model, other, 2n),
    );
  });

  it("checks the revelation against the chain: a wrong one reverts IncorrectRevelation", async () => {
    const f = await fixture();
    const provider = addressOf(f.provider);
    const { sequenceNumber } = await ask(f);
    const { sequenceNumber: next } = await ask(f);
    for (const wrong of [
      revelationFor(f.model, provider, next), // the next sequence's value
      keccak256(revelationFor(f.model, provider, sequenceNumber)), // one hash too many
      keccak256(toHex("made up")),
    ]) {
      await viem.assertions.revertWithCustomError(
        revealTx(f.model, provider, sequenceNumber, { providerRevelation: wrong }),
        f.model.contract,
        "IncorrectRevelation",
      );
    }
    // The user's number is checked too.
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.revealWithCallback([
        provider,
        sequenceNumber,
        keccak256(toHex("someone else's")),
        revelationFor(f.model, provider, sequenceNumber),
      ]),
      f.model.contract,
      "IncorrectRevelation",
    );
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.revealWithCallback([
        provider,
        99n,
        keccak256("0x01"),
        keccak256("0x02"),
      ]),
      f.model.contract,
      "NoSuchRequest",
    );

    // Anyone may reveal with the right value; the number is keccak256(user, provider, 0).
    const receipt = await revealRequest(f.model, provider, next, { account: f.stranger.account });
    const user = keccak256(toHex("user"));
    const revelation = revelationFor(f.model, provider, next);
    const expected = keccak256(`${user}${revelation.slice(2)}${"00".repeat(32)}` as Hex);
    const [revealed] = revealedIn(f.model, receipt);
    assert.equal(revealed.randomNumber, expected);
    assert.equal(revealed.providerContribution, revelation);
    assert.equal(revealed.callbackFailed, false);
    assert.equal(await f.consumer.read.lastRandomNumber(), expected);
    assert.equal(await f.consumer.read.lastSequence(), next);
    // The provider's commitment moved to the value revealed; the earlier request still verifies.
    const info = await f.model.contract.read.getProviderInfoV2([provider]);
    assert.equal(info.currentCommitmentSequenceNumber, next);
    assert.equal(info.currentCommitment, revelation);
    await revealRequest(f.model, provider, sequenceNumber);
    assert.equal(await f.consumer.read.delivered(), 2n);
    // A request is delivered once.
    await viem.assertions.revertWithCustomError(
      revealTx(f.model, provider, sequenceNumber),
      f.model.contract,
      "NoSuchRequest",
    );
  });

  it("the chain of the helper hashes back to its commitment", () => {
    const chain = hashChain(keccak256(toHex("seed")), 5);
    let v = chain[4];
    for (let k = 0; k < 4; k++) v = keccak256(v);
    assert.equal(v, chain[0]);
  });

  it("refuses with OutOfRandomness at the chain's end, until the provider registers a new chain", async () => {
    const f = await fixture();
    // A chain of 4 values: the commitment (sequence 0) and sequences 1..3.
    await registerProvider(f.model, f.otherProvider, { chainLength: 4 });
    const other = addressOf(f.otherProvider);
    for (let s = 1n; s <= 3n; s++)
      assert.equal((await ask(f, { provider: other })).sequenceNumber, s);
    const fee = await f.model.contract.read.getFeeV2([other, MODEL_DEFAULT_GAS_LIMIT]);
    await viem.assertions.revertWithCustomError(
      f.consumer.write.request([other, keccak256("0x01"), MODEL_DEFAULT_GAS_LIMIT], { value: fee }),
      f.model.contract,
      "OutOfRandomness",
    );
    // A rotation commits to a new chain at the next sequence number; old requests keep theirs.
    await registerProvider(f.model, f.otherProvider, { chainLength: 10 });
    const { sequenceNumber } = await ask(f, { provider: other });
    assert.equal(sequenceNumber, 5n, "the new commitment holds sequence 4");
    await revealRequest(f.model, other, 5n);
    await revealRequest(f.model, other, 3n);
    assert.equal(await f.consumer.read.delivered(), 2n);
  });

  it("refuses with LastRevealedTooOld once maxNumHashes requests wait unrevealed", async () => {
    const f = await fixture();
    await registerProvider(f.model, f.otherProvider, { maxNumHashes: 5 });
    const other = addressOf(f.otherProvider);
    // The flood: five requests nobody reveals.
    for (let s = 1n; s <= 5n; s++) await ask(f, { provider: other });
    const fee = await f.model.contract.read.getFeeV2([other, MODEL_DEFAULT_GAS_LIMIT]);
    await viem.assertions.revertWithCustomError(
      f.consumer.write.request([other, keccak256("0x01"), MODEL_DEFAULT_GAS_LIMIT], { value: fee }),
      f.model.contract,
      "LastRevealedTooOld",
    );
    // Revealing the latest moves the commitment up: the provider takes requests again.
    await revealRequest(f.model, other, 5n);
    assert.equal((await ask(f, { provider: other })).sequenceNumber, 6n);
    const request = await f.model.contract.read.getRequestV2([other, 6n]);
    assert.equal(request.numHashes, 1);
  });

  it("files a request whose array slot is still held in the overflow, and finds both", async () => {
    const f = await fixture();
    const provider = addressOf(f.provider);
    const { sequenceNumber: held } = await ask(f);
    for (let i = 0; i < 31; i++) {
      const { sequenceNumber } = await ask(f);
      await revealRequest(f.model, provider, sequenceNumber);
    }
    // held + 32 lands on held's slot.
    const { sequenceNumber: spilled } = await ask(f);
    assert.equal(spilled, held + 32n);
    for (const s of [held, spilled]) {
      const request = await f.model.contract.read.getRequestV2([provider, s]);
      assert.equal(request.sequenceNumber, s);
      assert.equal(request.requester, getAddress(f.consumer.address));
      assert.equal(request.callbackStatus, STATUS.NotStarted);
      assert.equal(request.gasLimit10k, 10);
    }
    await revealRequest(f.model, provider, spilled);
    await revealRequest(f.model, provider, held);
    for (const s of [held, spilled]) {
      assert.equal((await f.model.contract.read.getRequestV2([provider, s])).sequenceNumber, 0n);
    }
  });
});

describe("EntropyModel: the older request without a callback, and the provider's commitment advance", () => {
  it("request(): the requester alone reveals it, with its secret; the number comes back, nobody is called", async () => {
    const f = await fixture();
    const provider = addressOf(f.provider);
    assert.equal(
      await f.model.contract.read.getFee([provider]),
      await f.model.contract.read.getFeeV2([provider, 0]),
    );
    const secret = keccak256(toHex("alice's secret"));
    const { sequenceNumber, receipt } = await requestWithoutCallback(f.model, f.alice, provider, {
      secret,
    });
    assert.equal(sequenceNumber, 1n);
    // Only the older event: no V2 Requested, so nothing that watches for callbacks sees it.
    assert.equal(requestsIn(f.model, receipt).length, 0);
    const [v1] = olderRequestsIn(f.model, receipt);
    assert.equal(v1.isRequestWithCallback, false);
    assert.equal(v1.requester, addressOf(f.alice));
    const stored = await f.model.contract.read.getRequestV2([provider, sequenceNumber]);
    assert.equal(stored.callbackStatus, STATUS.None);
    const revelation = revelationFor(f.model, provider, sequenceNumber);
    // Not through revealWithCallback, not by anyone else, not with another secret.
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.revealWithCallback([provider, sequenceNumber, secret, revelation]),
      f.model.contract,
      "InvalidRevealCall",
    );
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.reveal([provider, sequenceNumber, secret, revelation], {
        account: f.stranger.account,
      }),
      f.model.contract,
      "Unauthorized",
    );
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.reveal([provider, sequenceNumber, keccak256("0x01"), revelation], {
        account: f.alice.account,
      }),
      f.model.contract,
      "IncorrectRevelation",
    );
    const expected = await f.model.contract.read.combineRandomValues([
      secret,
      revelation,
      `0x${"00".repeat(32)}`,
    ]);
    const { result } = await f.model.contract.simulate.reveal(
      [provider, sequenceNumber, secret, revelation],
      { account: addressOf(f.alice) },
    );
    assert.equal(result, expected);
    await mined(
      f,
      f.model.contract.write.reveal([provider, sequenceNumber, secret, revelation], {
        account: f.alice.account,
      }),
    );
    const info = await f.model.contract.read.getProviderInfoV2([provider]);
    assert.equal(info.currentCommitmentSequenceNumber, sequenceNumber);
    assert.equal(info.accruedFeesInWei, MODEL_PROVIDER_FEE, "paid when revealed, as a callback's");
    // A callback request cannot be revealed this way.
    const { sequenceNumber: withCallback } = await ask(f);
    await viem.assertions.revertWithCustomError(
      f.model.contract.write.reveal(
        [
          provider,
          withCallback,
          keccak256(toHex("user")),
          revelationFor(f.model, provider, withCallback),
        ],
        { account: f.alice.account },
      ),
      f.model.contract,
      "InvalidRevealCall",
    );
  });

  it("a flood without callbacks is never revealed: it refuses until someone advances the commitment", async () => {
    const f = await fixture();
    await registerProvider(f.model, f.otherProvider, { maxNumHashes: 5 });
    const other = addressOf(f.otherProvider);
    for (let s = 1n; s <= 5n; s++) {
      assert.equal((await requestWithoutCallback(f.model, f.stranger, other)).sequenceNumber, s);
    }
    const fee = await f.model.contract.read.getFeeV2([other, MODEL_DEFAULT_GAS_LIMIT]);
    const refused = () =>
      f.consumer.write.request([other, keccak256("0x01"), MODEL_DEFAULT_GAS_LIMIT], { value: fee });
    await viem.assertions.revertWithCustomError(refused(), f.model.contract, "LastRevealedTooOld");
    // Nothing the provider's callback keeper does helps: there is nothing with a callback to reveal.
    // An advance with the provider's public revelation of the latest request clears the backlog.
    await viem.assertions.revertWithCustomError(
      advanceTx(f.model, other, 5n, { providerRevelation: revelationFor(f.model, other, 4n) }),
      f.model.contract,
      "IncorrectRevelation",
    );
    const advanced = await mined(f, advanceTx(f.model, other, 5n, { account: f.stranger.account }));
    assert.ok(advanced.gasUsed < 60_000n, `an advance of 5 costs ${advanced.gasUsed}`);
    const info = await f.model.contract.read.getProviderInfoV2([other]);
    assert.equal(info.currentCommitmentSequenceNumber, 5n);
    assert.equal(info.currentCommitment, revelationFor(f.model, other, 5n));
    assert.equal(info.sequenceNumber, 6n);
    const { sequenceNumber } = await ask(f, { provider: other });
    assert.equal(sequenceNumber, 6n);
    assert.equal((await f.model.contract.read.getRequestV2([other, 6n])).numHashes, 1);
    // Not backwards, not to where it is, not past the chain's end.
    for (const [to, error] of [
      [5n, "UpdateTooOld"],
      [3n, "UpdateTooOld"],
      [BigInt(2000), "AssertionFailure"],
    ] as const) {
      await viem.assertions.revertWithCustomError(
        advanceTx(f.model, other, to, { providerRevelation: keccak256("0x01") }),
        f.model.contract,
        error,
      );
    }
    // The flood's requests recorded the old commitment: each still reveals to its requester.
    await revealRequest(f.model, other, 6n);
    assert.equal(await f.consumer.read.lastSequence(), 6n);
  });

  it("an advance past the sequences handed out moves the next one past it: a public revelation answers no request", async () => {
    const f = await fixture();
    const provider = addressOf(f.provider);
    await ask(f);
    await mined(f, advanceTx(f.model, provider, 4n));
    const info = await f.model.contract.read.getProviderInfoV2([provider]);
    assert.equal(info.sequenceNumber, 5n);
    assert.equal((await ask(f)).sequenceNumber, 5n);
    // Request 1 was made against the commitment at 0 and still verifies.
    await revealRequest(f.model, provider, 1n);
    await revealRequest(f.model, provider, 5n);
    assert.equal(await f.consumer.read.delivered(), 2n);
  });
});

describe("EntropyModel: the callback", () => {
  for (const [name, mode] of [
    ["reverts", MODE.Revert],
    ["needs more gas than its limit", MODE.Heavy],
  ] as const) {
    it(`a callback that ${name} leaves the request CALLBACK_FAILED; a retry delivers it`, async () => {
      const f = await fixture();
      const provider = addressOf(f.provider);
      await mined(f, f.consumer.write.setMode([mode]));
      const { sequenceNumber } = await ask(f);
      const receipt = await revealRequest(f.model, provider, sequenceNumber);
      const [revealed] = revealedIn(f.model, receipt);
      assert.equal(revealed.callbackFailed, true);
      // The gas used counts the call itself (a cold account) beside the callback's own.
      assert.ok(revealed.callbackGasUsed <= MODEL_DEFAULT_GAS_LIMIT + 5_000);
      if (mode === MODE.Heavy) {
        assert.equal(revealed.callbackReturnValue, "0x", "out of gas returns nothing");
        assert.ok(revealed.callbackGasUsed >= MODEL_DEFAULT_GAS_LIMIT, "it had its whole limit");
      } else {
        assert.equal(
          revealed.callbackReturnValue,
          encodeErrorResult({ abi: f.consumer.abi, errorName: "Refused", args: [sequenceNumber] }),
        );
      }
      const failed = await f.publicClient.getContractEvents({
        address: f.model.address,
        abi: f.model.contract.abi,
        eventName: "CallbackFailed",
        fromBlock: receipt.blockNumber,
        toBlock: receipt.blockNumber,
      });
      assert.equal(failed.length, 1);
      assert.equal(failed[0].args.sequenceNumber, sequenceNumber);
      assert.equal(failed[0].args.randomNumber, revealed.randomNumber);
      let request = await f.model.contract.read.getRequestV2([provider, sequenceNumber]);
      assert.equal(request.callbackStatus, STATUS.Failed);
      assert.equal(await f.consumer.read.delivered(), 0n);
      // The provider was paid for revealing; the retry is the caller's affair.
      const info = await f.model.contract.read.getProviderInfoV2([provider]);
      assert.equal(info.accruedFeesInWei, MODEL_PROVIDER_FEE);

      if (mode === MODE.Revert) {
        // Retried while the consumer still refuses: the retry reverts with its reason.
        await viem.assertions.revertWithCustomErrorWithArgs(
          revealTx(f.model, provider, sequenceNumber),
          f.consumer,
          "Refused",
          [sequenceNumber],
        );
        await mined(f, f.consumer.write.setMode([MODE.Keep]));
      }
      // The retry runs the callback with all the gas it is given, and delivers.
      const retried = await revealRequest(f.model, provider, sequenceNumber, {
        account: f.stranger.account,
        gas: 1_000_000n,
      });
      const [again] = revealedIn(f.model, retried);
      assert.equal(again.callbackFailed, false);
      assert.equal(again.randomNumber, revealed.randomNumber, "the same number");
      assert.equal(await f.consumer.read.delivered(), 1n);
      assert.equal(await f.consumer.read.lastRandomNumber(), revealed.randomNumber);
      request = await f.model.contract.read.getRequestV2([provider, sequenceNumber]);
      assert.equal(request.sequenceNumber, 0n, "the request is gone");
      await viem.assertions.revertWithCustomError(
        revealTx(f.model, provider, sequenceNumber),
        f.model.contract,
        "NoSuchRequest",
      );
    });
  }

  it("runs the callback under the request's own gas limit; a caller that leaves less is refused", async () => {
    const f = await fixture();
    const provider = addressOf(f.provider);
    await mined(f, f.consumer.write.setMode([MODE.Heavy]));
    // The heavy callback fits in 300 000 gas, not in the default 100 000.
    const { sequenceNumber } = await ask(f, { gasLimit: 300_000 });
    assert.equal(
      (await f.model.contract.read.getRequestV2([provider, sequenceNumber])).gasLimit10k,
      30,
    );
    await viem.assertions.revertWithCustomError(
      revealTx(f.model, provider, sequenceNumber, { gas: 250_000n }),
      f.model.contract,
      "InsufficientGas",
    );
    const receipt = await revealRequest(f.model, provider, sequenceNumber, { gas: 600_000n });
    const [revealed] = revealedIn(f.model, receipt);
    assert.equal(revealed.callbackFailed, false);
    assert.ok(revealed.callbackGasUsed > MODEL_DEFAULT_GAS_LIMIT);
    assert.equal(await f.consumer.read.delivered(), 1n);
  });
});

describe("what the keeper asks of Entropy", () => {
  it("its fragments are Pyth's published ABI (the SDK's abis/IEntropy.json), internal types aside", () => {
    const published = JSON.parse(
      readFileSync(
        new URL(
          "../node_modules/@pythnetwork/entropy-sdk-solidity/abis/IEntropy.json",
          import.meta.url,
        ),
        "utf8",
      ),
    ) as { name?: string }[];
    const withoutInternalTypes = (x: unknown): unknown =>
      Array.isArray(x)
        ? x.map(withoutInternalTypes)
        : x !== null && typeof x === "object"
          ? Object.fromEntries(
              Object.entries(x)
                .filter(([k]) => k !== "internalType")
                .map(([k, v]) => [k, withoutInternalTypes(v)]),
            )
          : x;
    for (const fragment of entropyBacklogAbi) {
      const theirs = published.find((f) => f.name === fragment.name);
      assert.deepEqual(withoutInternalTypes(theirs), fragment, fragment.name);
    }
  });
});
