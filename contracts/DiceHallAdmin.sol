// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {DiceHallStorage} from "./DiceHallStorage.sol";
import {PlayerState} from "./types/PlayerState.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";
import {Sheet} from "./libraries/Sheet.sol";
import {TurnOrder} from "./libraries/TurnOrder.sol";

/// @title DiceHallAdmin: the owner's settings and the two sheet views of DiceHall, in code of their own.
/// @notice DiceHall deploys it in its constructor and delegatecalls it for these functions only, so they run on
/// DiceHall's storage, at DiceHall's address, with DiceHall's owner: players and the books know one address.
/// Called directly it acts on its own empty storage, which nothing reads.
/// @dev It exists because DiceHall with sessions and credit payments no longer fits EIP-170's 24 576 bytes.
/// None of these is on a player's move: a roll and a score never pay for the delegatecall.
contract DiceHallAdmin is DiceHallStorage {
    constructor(address entropy_) DiceHallStorage(entropy_, msg.sender) {}

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setTokenConfig(address token, bool allowed, uint128 minBet, uint128 maxBet) external onlyOwner {
        if (allowed) {
            if (maxBet == 0 || minBet > maxBet) revert IDiceHall.InvalidBetLimits(minBet, maxBet);
            _betLimits[token] = BetLimits(minBet, maxBet);
        } else {
            delete _betLimits[token];
            (minBet, maxBet) = (0, 0);
        }
        emit IDiceHall.TokenConfigured(token, allowed, minBet, maxBet);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setHouseFee(uint16 bps) external onlyOwner {
        if (bps > MAX_HOUSE_FEE_BPS) revert IDiceHall.FeeAboveCap(bps, MAX_HOUSE_FEE_BPS);
        _settings.houseFeeBps = bps;
        emit IDiceHall.HouseFeeSet(bps);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setJoinWindowBounds(uint32 min, uint32 max) external onlyOwner {
        if (min == 0 || min > max) revert IDiceHall.InvalidBounds(min, max);
        (_bounds.joinMin, _bounds.joinMax) = (min, max);
        emit IDiceHall.JoinWindowBoundsSet(min, max);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setMoveTimeoutBounds(uint32 min, uint32 max) external onlyOwner {
        if (min == 0 || min > max) revert IDiceHall.InvalidBounds(min, max);
        (_bounds.moveMin, _bounds.moveMax) = (min, max);
        emit IDiceHall.MoveTimeoutBoundsSet(min, max);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setEntropyTimeout(uint32 seconds_) external onlyOwner {
        if (seconds_ < MIN_ENTROPY_TIMEOUT) revert IDiceHall.InvalidSetting(seconds_);
        _settings.entropyTimeout = seconds_;
        emit IDiceHall.EntropyTimeoutSet(seconds_);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setCallOffWindow(uint32 seconds_) external onlyOwner {
        if (seconds_ < MIN_CALL_OFF_WINDOW || seconds_ > MAX_CALL_OFF_WINDOW)
            revert IDiceHall.InvalidSetting(seconds_);
        _bounds.callOffWindow = seconds_;
        emit IDiceHall.CallOffWindowSet(seconds_);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setCallbackGasLimit(uint32 gasLimit) external onlyOwner {
        if (gasLimit < MIN_CALLBACK_GAS_LIMIT || gasLimit > MAX_CALLBACK_GAS_LIMIT)
            revert IDiceHall.InvalidSetting(gasLimit);
        _settings.callbackGasLimit = gasLimit;
        emit IDiceHall.CallbackGasLimitSet(gasLimit);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setEntropyProvider(address provider) external onlyOwner {
        // Entropy's registration is open to anyone, and a provider knows its numbers in advance: so the hall
        // trusts Pyth's choice of provider and no other.
        address defaultProvider = ENTROPY.getDefaultProvider();
        if (provider != defaultProvider) revert IDiceHall.NotDefaultProvider(provider, defaultProvider);
        uint16 id = _providerIds[provider];
        if (id == 0) {
            id = ++_providerCount;
            _providerIds[provider] = id;
            _providers[id] = provider;
        }
        _settings.provider = provider;
        _settings.providerId = id;
        emit IDiceHall.EntropyProviderSet(provider);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function getGame(uint256 gameId) external view returns (IDiceHall.GameView memory v) {
        Game storage g = _games[gameId];
        if (g.status == IDiceHall.GameStatus.None) revert IDiceHall.UnknownGame(gameId);
        v.status = g.status;
        v.config = IDiceHall.GameConfig({
            token: g.token,
            bet: g.bet,
            seats: g.seats,
            ruleSet: g.ruleSet,
            joinWindow: g.joinWindow,
            moveTimeout: g.moveTimeout,
            invitees: _invitees[gameId]
        });
        v.creator = g.players[0];
        v.houseFeeBps = g.feeBps;
        v.entropyTimeout = g.entropyTimeout;
        v.pot = uint256(g.bet) * g.seats;
        v.provider = _providers[g.providerId];
        v.callbackGasLimit = g.callbackGasLimit;
        v.callOffWindow = g.callOffWindow;
        v.rollFeeCap = g.rollFeeCap;
        v.orderDrawn = g.order != 0;
        uint256 count = v.orderDrawn ? g.seats : g.joined;
        v.players = new address[](count);
        for (uint256 i; i < count; ++i) v.players[i] = g.players[v.orderDrawn ? TurnOrder.at(g.order, i) : i];
        if (g.status != IDiceHall.GameStatus.Running) {
            if (g.status == IDiceHall.GameStatus.Open) v.deadline = g.clock;
            else v.round = g.round;
            return v;
        }
        v.currentSeat = g.turn;
        v.round = g.round;
        v.entropyAttempts = g.attempts;
        if (g.attempts == 0) {
            v.deadline = g.clock;
        } else {
            v.pendingSequence = g.pendingSequence;
            v.rollRequestedAt = g.clock;
            v.pendingKeepMask = g.pendingKeepMask;
            v.retryAt = _retryAt(g);
            v.callOffAt = _callOffAt(g);
        }
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function getPlayer(uint256 gameId, address player) external view returns (IDiceHall.PlayerView memory v) {
        Game storage g = _games[gameId];
        if (g.status == IDiceHall.GameStatus.None) revert IDiceHall.UnknownGame(gameId);
        PlayerState state = _sheets[gameId][player];
        uint8 boxes = Scoring.boxCount(g.ruleSet);
        v.filled = new bool[](boxes);
        v.boxScores = new uint256[](boxes);
        if (!state.seated()) return v;
        v.seated = true;
        v.seat = uint8(
            g.order != 0 ? TurnOrder.positionOf(g.order, state.joinIndex(), g.seats) : state.joinIndex()
        );
        v.dice = Dice.unpack(state.dice());
        v.rollsUsed = uint8(state.rollsUsed());
        for (uint8 b; b < boxes; ++b) {
            v.filled[b] = state.isFilled(b);
            v.boxScores[b] = state.boxScore(b);
        }
        v.yahtzeeBonusCount = uint8(state.yahtzeeBonusCount());
        (v.upperTotal, v.upperBonus, v.yahtzeeBonus, v.total) = Sheet.totals(g.ruleSet, state);
        v.forfeited = state.forfeited();
    }
}
