// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";
import {IEntropyConsumer} from "@pythnetwork/entropy-sdk-solidity/IEntropyConsumer.sol";
import {EntropyEvents} from "@pythnetwork/entropy-sdk-solidity/EntropyEvents.sol";
import {EntropyErrors} from "@pythnetwork/entropy-sdk-solidity/EntropyErrors.sol";
import {EntropyStructs} from "@pythnetwork/entropy-sdk-solidity/EntropyStructs.sol";
import {EntropyStructsV2} from "@pythnetwork/entropy-sdk-solidity/EntropyStructsV2.sol";
import {EntropyStatusConstants} from "@pythnetwork/entropy-sdk-solidity/EntropyStatusConstants.sol";

/// @title EntropyModel: our own model of Pyth Entropy V2, written from its public interface and documentation
/// (the SDK's IEntropyV2 / IEntropy, events, errors, structs); DiceHall's tests of record run on it.
/// @notice What it models:
/// - providers that `register` a keccak hash chain: commitment = keccak^(chainLength-1)(seed) at the provider's
///   current sequence number, which is never handed out; sequences up to `endSequenceNumber` (exclusive) are.
///   Registering again rotates the chain. A request past the chain's end reverts `OutOfRandomness`.
/// - sequence numbers per provider; fees = the provider's (scaled by the callback gas limit over its default:
///   fee * limit / default) + the protocol's. A short payment reverts `InsufficientFee`; whatever is paid over
///   the provider's fee, overpayment included, is the protocol's. The provider's fee is held per request and
///   paid to the provider when it reveals the request (a modelling choice: what it delivers is what it earns).
/// - `maxNumHashes`: a request more than that many sequences past the provider's current commitment (the
///   latest value revealed, or advanced to) reverts `LastRevealedTooOld`, so a flood of unrevealed requests
///   makes it refuse.
/// - two ways to ask. `requestV2` (and `requestWithCallback`): the user's number is given and the requester is
///   called back when anyone reveals. The older `request(provider, userCommitment, useBlockHash)` (`getFee`):
///   only the hash of the user's number is given and nobody is called back; the requester alone may `reveal`
///   it (`Unauthorized` for anyone else, `InvalidRevealCall` for a request of the other kind), with the user's
///   number, and gets the number returned (with the request block's hash mixed in if asked:
///   `BlockhashUnavailable` in that block or 256 blocks on). Such a request that is never revealed moves the
///   provider's commitment nowhere: only the next reveal of a later request, or an advance, clears the backlog.
/// - `advanceProviderCommitment(provider, advancedSequenceNumber, providerRevelation)`, open to anyone: the
///   revelation of a later sequence of the current chain, hashed back to the current commitment
///   (`IncorrectRevelation` otherwise), becomes the current commitment; a sequence not later than the current
///   one reverts `UpdateTooOld`, one at or past the chain's end `AssertionFailure`; one not yet handed out
///   moves the next sequence number past it (its revelation is public now, so it must never answer a request).
///   Requests made before an advance still reveal against the commitment they recorded.
/// - requests kept in 32 fixed slots chosen by sequence number mod 32, each four storage slots (the SDK's
///   three-slot Request and the user's number); while a slot holds an unrevealed request, a new request that
///   lands on it is filed in a mapping instead. A revealed slot is released by zeroing its sequence number, so
///   the next request rewrites warm storage (5 000 gas a slot) and one in the mapping pays for fresh storage
///   (22 100). That, the fee held per request and both generations of events set the gas within 10 % of the
///   real contract's as measured (README, Gas; `npm run gas` prints and checks it).
/// - `revealWithCallback` by anyone who knows the provider's revelation: it is hashed numHashes times back to
///   the commitment the request recorded (`IncorrectRevelation` otherwise), the provider's current commitment
///   moves up to it, the number is keccak256(userRandomNumber, providerRevelation, bytes32(0))
///   (`combineRandomValues` with no blockhash: V2 requests use none), and the requester's `_entropyCallback`
///   runs under the request's gas limit (rounded up to 10 000s, at least the provider's default;
///   `InsufficientGas` if the caller left less). A callback that reverts or runs out of gas leaves the request
///   CALLBACK_FAILED and emits `CallbackFailed` and `Revealed(callbackFailed = true)`; revealing it again
///   retries the callback with all the gas the caller gives, and a failure then reverts the retry.
/// - both generations of events where the real contract emits both; `request` and `reveal` emit only the
///   deprecated `Requested(Request)` and `Revealed(Request, ...)`, as the real contract does.
/// Not modelled: the real contract's request slot chosen by a hash of (provider, sequence number) (here sequence
/// mod 32), its moving an old request aside when a new one needs the slot (here the new one goes to a mapping),
/// the proxy and upgrades, governance and admin transfer, withdrawing the protocol's fees, fee
/// managers, the provider's own keeper (when it reveals, when it advances its commitment: the tests and
/// `bench:hold` play it), and the in-contract PRNG of the requestV2 variants without a user number (a counter
/// hash stands in for it).
contract EntropyModel is IEntropyV2, EntropyEvents {
    /// @notice Only the deployer may change the protocol's settings.
    error NotOwner(address caller);

    uint256 private constant REQUEST_SLOTS = 32;

    /// @notice The deployer: it alone sets the protocol's fee and default provider.
    address public immutable OWNER;
    address private _defaultProvider;
    uint128 private _pythFeeInWei;
    uint128 private _accruedPythFeesInWei;
    uint256 private _requestCounter;

    /// @dev A request as stored: the SDK's three slots and the user's contribution in a fourth.
    struct StoredRequest {
        EntropyStructsV2.Request r;
        bytes32 userRandomNumber;
    }

    mapping(address provider => EntropyStructsV2.ProviderInfo) private _providers;
    StoredRequest[REQUEST_SLOTS] private _requests;
    mapping(bytes32 requestKey => StoredRequest) private _requestsOverflow;
    /// @dev The provider's fee for each request, held until the provider reveals it.
    mapping(bytes32 requestKey => uint256) private _heldFees;

    /// @param pythFeeInWei the protocol's fee, charged on top of the provider's
    /// @param defaultProvider the provider `getDefaultProvider()` names (it registers itself with `register`)
    constructor(uint128 pythFeeInWei, address defaultProvider) {
        OWNER = msg.sender;
        _pythFeeInWei = pythFeeInWei;
        _defaultProvider = defaultProvider;
    }

    modifier onlyOwner() {
        if (msg.sender != OWNER) revert NotOwner(msg.sender);
        _;
    }

    // ============================================================ protocol settings (owner)

    function setPythFee(uint128 pythFeeInWei) external onlyOwner {
        _pythFeeInWei = pythFeeInWei;
    }

    function setDefaultProvider(address provider) external onlyOwner {
        _defaultProvider = provider;
    }

    function getAccruedPythFees() external view returns (uint128) {
        return _accruedPythFeesInWei;
    }

    function getPythFee() external view returns (uint128) {
        return _pythFeeInWei;
    }

    // ============================================================ providers (msg.sender is the provider)

    /// @notice Registers the caller as a provider, or rotates its hash chain. `chainLength` counts the
    /// commitment itself, so the chain serves chainLength - 1 requests.
    function register(
        uint128 feeInWei,
        bytes32 commitment,
        bytes calldata commitmentMetadata,
        uint64 chainLength,
        bytes calldata uri
    ) external {
        if (chainLength == 0) revert EntropyErrors.AssertionFailure();
        EntropyStructsV2.ProviderInfo storage p = _providers[msg.sender];
        p.feeInWei = feeInWei;
        p.originalCommitment = commitment;
        p.originalCommitmentSequenceNumber = p.sequenceNumber;
        p.currentCommitment = commitment;
        p.currentCommitmentSequenceNumber = p.sequenceNumber;
        p.commitmentMetadata = commitmentMetadata;
        p.endSequenceNumber = p.sequenceNumber + chainLength;
        p.uri = uri;
        // The commitment's own sequence number is never handed out.
        p.sequenceNumber += 1;
        emit Registered(msg.sender, "");
    }

    function setProviderFee(uint128 newFeeInWei) external {
        EntropyStructsV2.ProviderInfo storage p = _registered(msg.sender);
        uint128 oldFee = p.feeInWei;
        p.feeInWei = newFeeInWei;
        emit ProviderFeeUpdated(msg.sender, oldFee, newFeeInWei, "");
    }

    function setDefaultGasLimit(uint32 gasLimit) external {
        EntropyStructsV2.ProviderInfo storage p = _registered(msg.sender);
        uint32 oldLimit = p.defaultGasLimit;
        p.defaultGasLimit = gasLimit;
        emit ProviderDefaultGasLimitUpdated(msg.sender, oldLimit, gasLimit, "");
    }

    function setMaxNumHashes(uint32 maxNumHashes) external {
        EntropyStructsV2.ProviderInfo storage p = _registered(msg.sender);
        uint32 oldMax = p.maxNumHashes;
        p.maxNumHashes = maxNumHashes;
        emit ProviderMaxNumHashesAdvanced(msg.sender, oldMax, maxNumHashes, "");
    }

    /// @notice Pays the caller `amount` of its accrued fees.
    function withdraw(uint128 amount) external {
        EntropyStructsV2.ProviderInfo storage p = _registered(msg.sender);
        if (p.accruedFeesInWei < amount) revert EntropyErrors.InsufficientFee();
        p.accruedFeesInWei -= amount;
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, ) = msg.sender.call{value: amount}("");
        if (!ok) revert EntropyErrors.AssertionFailure();
        emit Withdrawal(msg.sender, msg.sender, amount, "");
    }

    // ============================================================ requests

    function requestV2() external payable returns (uint64) {
        return _request(_defaultProvider, _nextCounterRandom(), 0);
    }

    function requestV2(uint32 gasLimit) external payable returns (uint64) {
        return _request(_defaultProvider, _nextCounterRandom(), gasLimit);
    }

    function requestV2(address provider, uint32 gasLimit) external payable returns (uint64) {
        return _request(provider, _nextCounterRandom(), gasLimit);
    }

    function requestV2(
        address provider,
        bytes32 userRandomNumber,
        uint32 gasLimit
    ) external payable returns (uint64) {
        return _request(provider, userRandomNumber, gasLimit);
    }

    function requestWithCallback(
        address provider,
        bytes32 userRandomNumber
    ) external payable returns (uint64) {
        return _request(provider, userRandomNumber, 0);
    }

    /// @notice The older request: the caller gives only the hash of its number, is never called back, and
    /// reveals it itself with `reveal`.
    function request(
        address provider,
        bytes32 userCommitment,
        bool useBlockHash
    ) external payable returns (uint64 sequenceNumber) {
        StoredRequest storage stored;
        (stored, sequenceNumber, ) = _newRequest(provider, userCommitment, 0);
        stored.r.useBlockhash = useBlockHash;
        stored.r.callbackStatus = EntropyStatusConstants.CALLBACK_NOT_NECESSARY;
        emit Requested(_v1(stored.r));
    }

    function _request(
        address provider,
        bytes32 userRandomNumber,
        uint32 gasLimit
    ) private returns (uint64 sequenceNumber) {
        StoredRequest storage stored;
        uint16 gasLimit10k;
        (stored, sequenceNumber, gasLimit10k) = _newRequest(
            provider,
            constructUserCommitment(userRandomNumber),
            gasLimit
        );
        stored.userRandomNumber = userRandomNumber;
        EntropyStructsV2.Request storage req = stored.r;
        req.useBlockhash = false;
        req.callbackStatus = EntropyStatusConstants.CALLBACK_NOT_STARTED;
        emit RequestedWithCallback(provider, msg.sender, sequenceNumber, userRandomNumber, _v1(req));
        emit Requested(
            provider,
            msg.sender,
            sequenceNumber,
            userRandomNumber,
            uint32(gasLimit10k) * 10_000,
            ""
        );
    }

    /// @dev Takes the fee, hands out the next sequence number (refusing past the chain's end or maxNumHashes) and
    /// files the request; the caller sets its kind (callback status, blockhash) and the user's number.
    function _newRequest(
        address provider,
        bytes32 userCommitment,
        uint32 gasLimit
    ) private returns (StoredRequest storage stored, uint64 sequenceNumber, uint16 gasLimit10k) {
        EntropyStructsV2.ProviderInfo storage p = _registered(provider);
        uint128 providerFee;
        (providerFee, gasLimit10k) = _providerFee(p, gasLimit);
        uint128 pythFee = _pythFeeInWei;
        if (msg.value < uint256(providerFee) + pythFee) revert EntropyErrors.InsufficientFee();
        // Whatever is paid over the provider's fee is the protocol's, overpayment included; the provider's fee
        // is held until it reveals the request.
        _accruedPythFeesInWei += uint128(msg.value - providerFee);

        sequenceNumber = p.sequenceNumber;
        if (sequenceNumber >= p.endSequenceNumber) revert EntropyErrors.OutOfRandomness();
        uint64 numHashes = sequenceNumber - p.currentCommitmentSequenceNumber;
        uint32 maxNumHashes = p.maxNumHashes;
        if (maxNumHashes != 0 && numHashes > maxNumHashes) revert EntropyErrors.LastRevealedTooOld();
        p.sequenceNumber = sequenceNumber + 1;

        bytes32 key = _requestKey(provider, sequenceNumber);
        if (providerFee != 0) _heldFees[key] = providerFee;
        stored = _allocate(key, sequenceNumber);
        EntropyStructsV2.Request storage req = stored.r;
        req.provider = provider;
        req.sequenceNumber = sequenceNumber;
        req.numHashes = uint32(numHashes);
        req.commitment = keccak256(abi.encodePacked(userCommitment, p.currentCommitment));
        req.blockNumber = uint64(block.number);
        req.requester = msg.sender;
        req.gasLimit10k = gasLimit10k;
    }

    /// @dev The array slot of `sequenceNumber`, or a fresh mapping entry while that slot holds an unrevealed
    /// request (of this provider or another).
    function _allocate(
        bytes32 key,
        uint64 sequenceNumber
    ) private view returns (StoredRequest storage stored) {
        stored = _requests[sequenceNumber % REQUEST_SLOTS];
        if (stored.r.sequenceNumber != 0) stored = _requestsOverflow[key];
    }

    /// @dev The stored request (provider, sequenceNumber), wherever it was filed; reverts NoSuchRequest.
    function _find(
        address provider,
        uint64 sequenceNumber,
        bytes32 key
    ) private view returns (StoredRequest storage stored, bool inArray) {
        stored = _requests[sequenceNumber % REQUEST_SLOTS];
        if (stored.r.sequenceNumber == sequenceNumber && stored.r.provider == provider) return (stored, true);
        stored = _requestsOverflow[key];
        if (stored.r.sequenceNumber == 0) revert EntropyErrors.NoSuchRequest();
        return (stored, false);
    }

    function _requestKey(address provider, uint64 sequenceNumber) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(provider, sequenceNumber));
    }

    /// @dev An array slot is released by zeroing its sequence number (the rest is rewritten by the next
    /// request: warm storage); a mapping entry is deleted (never reused).
    function _release(StoredRequest storage stored, bool inArray) private {
        if (inArray) {
            stored.r.sequenceNumber = 0;
            stored.r.callbackStatus = EntropyStatusConstants.CALLBACK_NOT_NECESSARY;
        } else {
            delete stored.r;
            delete stored.userRandomNumber;
        }
    }

    function _nextCounterRandom() private returns (bytes32) {
        return keccak256(abi.encode(++_requestCounter, block.number, msg.sender));
    }

    // ============================================================ reveal

    /// @notice Delivers request `sequenceNumber` of `provider` to its requester; anyone may call it. A request
    /// whose callback failed may be revealed again, which retries the callback with all the gas given.
    function revealWithCallback(
        address provider,
        uint64 sequenceNumber,
        bytes32 userRandomNumber,
        bytes32 providerRevelation
    ) external {
        bytes32 key = _requestKey(provider, sequenceNumber);
        (StoredRequest storage stored, bool inArray) = _find(provider, sequenceNumber, key);
        EntropyStructsV2.Request storage req = stored.r;
        uint8 status = req.callbackStatus;
        if (
            status != EntropyStatusConstants.CALLBACK_NOT_STARTED &&
            status != EntropyStatusConstants.CALLBACK_FAILED
        ) revert EntropyErrors.InvalidRevealCall();
        if (userRandomNumber != stored.userRandomNumber) revert EntropyErrors.IncorrectRevelation();
        _verify(req, constructUserCommitment(userRandomNumber), providerRevelation);
        _advanceAndPay(provider, sequenceNumber, key, providerRevelation);

        Delivery memory d = Delivery({
            provider: provider,
            requester: req.requester,
            sequenceNumber: sequenceNumber,
            randomNumber: combineRandomValues(userRandomNumber, providerRevelation, bytes32(0)),
            userRandomNumber: userRandomNumber,
            providerRevelation: providerRevelation
        });
        emit RevealedWithCallback(_v1(req), userRandomNumber, providerRevelation, d.randomNumber);
        if (d.requester.code.length == 0) {
            _release(stored, inArray);
            _emitRevealed(d, false, "", 0);
            return;
        }
        bytes memory callback = abi.encodeCall(
            IEntropyConsumer._entropyCallback,
            (sequenceNumber, provider, d.randomNumber)
        );
        req.callbackStatus = EntropyStatusConstants.CALLBACK_IN_PROGRESS;
        if (status == EntropyStatusConstants.CALLBACK_FAILED) _retry(stored, inArray, d, callback);
        else _callback(stored, inArray, d, callback);
    }

    /// @dev What a reveal delivers, and to whom.
    struct Delivery {
        address provider;
        address requester;
        uint64 sequenceNumber;
        bytes32 randomNumber;
        bytes32 userRandomNumber;
        bytes32 providerRevelation;
    }

    /// @notice Reveals an older `request` (no callback) to its requester, who alone may: the number is returned.
    function reveal(
        address provider,
        uint64 sequenceNumber,
        bytes32 userRevelation,
        bytes32 providerRevelation
    ) external returns (bytes32 randomNumber) {
        bytes32 key = _requestKey(provider, sequenceNumber);
        (StoredRequest storage stored, bool inArray) = _find(provider, sequenceNumber, key);
        EntropyStructsV2.Request storage req = stored.r;
        if (req.callbackStatus != EntropyStatusConstants.CALLBACK_NOT_NECESSARY)
            revert EntropyErrors.InvalidRevealCall();
        if (req.requester != msg.sender) revert EntropyErrors.Unauthorized();
        _verify(req, constructUserCommitment(userRevelation), providerRevelation);
        bytes32 blockHash;
        if (req.useBlockhash) {
            blockHash = blockhash(req.blockNumber);
            // Zero in the request's own block and 256 blocks on: revealing then would be a second draw.
            if (blockHash == bytes32(0)) revert EntropyErrors.BlockhashUnavailable();
        }
        _advanceAndPay(provider, sequenceNumber, key, providerRevelation);
        randomNumber = combineRandomValues(userRevelation, providerRevelation, blockHash);
        emit Revealed(_v1(req), userRevelation, providerRevelation, blockHash, randomNumber);
        _release(stored, inArray);
    }

    /// @notice Moves `provider`'s current commitment up to `advancedSequenceNumber`, proved by its revelation
    /// hashed back to the current commitment; anyone may, as the revelation is the proof. Later requests then
    /// count maxNumHashes from there: this is what clears a backlog of requests nobody reveals.
    function advanceProviderCommitment(
        address provider,
        uint64 advancedSequenceNumber,
        bytes32 providerRevelation
    ) external {
        EntropyStructsV2.ProviderInfo storage p = _providers[provider];
        uint64 current = p.currentCommitmentSequenceNumber;
        if (advancedSequenceNumber <= current) revert EntropyErrors.UpdateTooOld();
        if (advancedSequenceNumber >= p.endSequenceNumber) revert EntropyErrors.AssertionFailure();
        if (_hashBack(providerRevelation, advancedSequenceNumber - current) != p.currentCommitment)
            revert EntropyErrors.IncorrectRevelation();
        p.currentCommitmentSequenceNumber = advancedSequenceNumber;
        p.currentCommitment = providerRevelation;
        // A revelation now public must never answer a request: sequences up to it are not handed out.
        if (advancedSequenceNumber >= p.sequenceNumber) p.sequenceNumber = advancedSequenceNumber + 1;
    }

    /// @dev The revelation hashed numHashes times must give the provider's commitment the request recorded,
    /// combined with the user's commitment.
    function _verify(
        EntropyStructsV2.Request storage req,
        bytes32 userCommitment,
        bytes32 providerRevelation
    ) private view {
        bytes32 providerCommitment = _hashBack(providerRevelation, req.numHashes);
        if (keccak256(abi.encodePacked(userCommitment, providerCommitment)) != req.commitment)
            revert EntropyErrors.IncorrectRevelation();
    }

    function _hashBack(bytes32 value, uint256 times) private pure returns (bytes32) {
        for (uint256 i; i < times; ++i) value = keccak256(abi.encodePacked(value));
        return value;
    }

    /// @dev The provider's current commitment moves up to the value revealed, and the provider is paid for the
    /// request the first time it is revealed (a retry is the caller's affair).
    function _advanceAndPay(
        address provider,
        uint64 sequenceNumber,
        bytes32 key,
        bytes32 providerRevelation
    ) private {
        EntropyStructsV2.ProviderInfo storage p = _providers[provider];
        if (sequenceNumber > p.currentCommitmentSequenceNumber) {
            p.currentCommitmentSequenceNumber = sequenceNumber;
            p.currentCommitment = providerRevelation;
        }
        uint256 held = _heldFees[key];
        if (held != 0) {
            delete _heldFees[key];
            p.accruedFeesInWei += uint128(held);
        }
    }

    /// @dev The first delivery: the callback runs under the request's gas limit and may fail without reverting.
    function _callback(
        StoredRequest storage stored,
        bool inArray,
        Delivery memory d,
        bytes memory callback
    ) private {
        uint256 gasLimit = uint256(stored.r.gasLimit10k) * 10_000;
        // The caller must leave the callback its whole limit after EIP-150 keeps 1/64 back.
        if (gasLimit != 0 && gasleft() < (gasLimit * 64) / 63 + 10_000)
            revert EntropyErrors.InsufficientGas();
        uint256 startGas = gasleft();
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, bytes memory ret) = d.requester.call{gas: gasLimit == 0 ? gasleft() : gasLimit}(callback);
        uint32 gasUsed = uint32(startGas - gasleft());
        if (ok) {
            _release(stored, inArray);
        } else {
            stored.r.callbackStatus = EntropyStatusConstants.CALLBACK_FAILED;
            emit CallbackFailed(
                d.provider,
                d.requester,
                d.sequenceNumber,
                d.userRandomNumber,
                d.providerRevelation,
                d.randomNumber,
                ret
            );
        }
        _emitRevealed(d, !ok, _first256(ret), gasUsed);
    }

    /// @dev A retry: all the gas the caller gave, and a failure reverts it (the request stays failed).
    function _retry(
        StoredRequest storage stored,
        bool inArray,
        Delivery memory d,
        bytes memory callback
    ) private {
        uint256 startGas = gasleft();
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, bytes memory ret) = d.requester.call(callback);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        _release(stored, inArray);
        _emitRevealed(d, false, _first256(ret), uint32(startGas - gasleft()));
    }

    function _emitRevealed(Delivery memory d, bool callbackFailed, bytes memory ret, uint32 gasUsed) private {
        emit Revealed(
            d.provider,
            d.requester,
            d.sequenceNumber,
            d.randomNumber,
            d.userRandomNumber,
            d.providerRevelation,
            callbackFailed,
            ret,
            gasUsed,
            ""
        );
    }

    function _first256(bytes memory data) private pure returns (bytes memory) {
        if (data.length > 256) {
            assembly {
                mstore(data, 256)
            }
        }
        return data;
    }

    function _v1(
        EntropyStructsV2.Request storage req
    ) private view returns (EntropyStructs.Request memory r) {
        r.provider = req.provider;
        r.sequenceNumber = req.sequenceNumber;
        r.numHashes = req.numHashes;
        r.commitment = req.commitment;
        r.blockNumber = req.blockNumber;
        r.requester = req.requester;
        r.useBlockhash = req.useBlockhash;
        r.isRequestWithCallback = req.callbackStatus != EntropyStatusConstants.CALLBACK_NOT_NECESSARY;
    }

    // ============================================================ views and pure helpers

    function getDefaultProvider() external view returns (address) {
        return _defaultProvider;
    }

    function getProviderInfoV2(
        address provider
    ) external view returns (EntropyStructsV2.ProviderInfo memory info) {
        return _providers[provider];
    }

    /// @notice The stored request, or an empty one when there is none (revealed, or never made).
    function getRequestV2(
        address provider,
        uint64 sequenceNumber
    ) external view returns (EntropyStructsV2.Request memory req) {
        EntropyStructsV2.Request storage stored = _requests[sequenceNumber % REQUEST_SLOTS].r;
        if (stored.sequenceNumber == sequenceNumber && stored.provider == provider) return stored;
        stored = _requestsOverflow[_requestKey(provider, sequenceNumber)].r;
        if (stored.sequenceNumber == sequenceNumber && stored.provider == provider) return stored;
    }

    /// @notice The fee of an older `request` (and `requestWithCallback`): the provider's default gas limit.
    function getFee(address provider) external view returns (uint128) {
        return _fee(provider, 0);
    }

    function getFeeV2() external view returns (uint128) {
        return _fee(_defaultProvider, 0);
    }

    function getFeeV2(uint32 gasLimit) external view returns (uint128) {
        return _fee(_defaultProvider, gasLimit);
    }

    function getFeeV2(address provider, uint32 gasLimit) external view returns (uint128) {
        return _fee(provider, gasLimit);
    }

    function _fee(address provider, uint32 gasLimit) private view returns (uint128) {
        (uint128 providerFee, ) = _providerFee(_registered(provider), gasLimit);
        return providerFee + _pythFeeInWei;
    }

    /// @dev The provider's fee for a callback gas limit, and that limit in units of 10 000 gas: rounded up, at
    /// least the provider's default. Above the default the fee grows in proportion:
    /// fee * limit / default.
    function _providerFee(
        EntropyStructsV2.ProviderInfo storage p,
        uint32 gasLimit
    ) private view returns (uint128 fee, uint16 gasLimit10k) {
        uint256 defaultLimit = p.defaultGasLimit;
        uint256 limit = gasLimit < defaultLimit ? defaultLimit : gasLimit;
        uint256 units = (limit + 9_999) / 10_000;
        if (units > type(uint16).max) revert EntropyErrors.MaxGasLimitExceeded();
        gasLimit10k = uint16(units);
        fee = p.feeInWei;
        if (defaultLimit != 0 && units * 10_000 > defaultLimit) {
            fee = uint128((uint256(fee) * units * 10_000) / defaultLimit);
        }
    }

    function _registered(address provider) private view returns (EntropyStructsV2.ProviderInfo storage p) {
        p = _providers[provider];
        if (p.sequenceNumber == 0) revert EntropyErrors.NoSuchProvider();
    }

    function constructUserCommitment(bytes32 userRandomness) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(userRandomness));
    }

    function combineRandomValues(
        bytes32 userRandomness,
        bytes32 providerRandomness,
        bytes32 blockHash
    ) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(userRandomness, providerRandomness, blockHash));
    }
}
