// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";

import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {PlayerState, PlayerStateLibrary} from "./types/PlayerState.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";
import {Sheet} from "./libraries/Sheet.sol";
import {TurnOrder} from "./libraries/TurnOrder.sol";
import {PendingRolls} from "./libraries/PendingRolls.sol";

/// @title DiceHall: lobbies, escrow, Pyth Entropy dice, turns, scoring, timeouts and payouts for dice games.
/// @notice The state machine of docs/PROTOCOL.md; the rules live in the libraries.
contract DiceHall is IDiceHall, Ownable2Step, Pausable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using PendingRolls for PendingRolls.Registry;

    uint16 public constant MAX_HOUSE_FEE_BPS = 1000;
    uint256 public constant MAX_INVITEES = 16;
    uint32 public constant MAX_CALLBACK_GAS_LIMIT = 2_500_000;
    uint256 private constant BPS = 10_000;
    uint8 private constant MAX_ROLLS = 3;

    /// @dev A game's header: three slots, then the seats in join order.
    struct Game {
        // slot 0
        address token;
        uint8 seats;
        uint8 ruleSet;
        GameStatus status;
        uint8 joined;
        uint8 turn; // position in the turn order of the player to move
        uint8 round;
        uint16 feeBps;
        uint8 order; // turn order: TurnOrder packing, position -> join index
        uint8 forfeited; // bit j set = the player at join index j forfeited
        // slot 1
        // Lobby: when the join window closes. Running: the current move deadline, or, while a roll is
        // pending, the time it was requested (the deadline does not run while the dice are out).
        uint64 clock;
        uint64 pendingSequence;
        uint32 moveTimeout;
        uint32 entropyTimeout;
        uint8 pendingKeepMask;
        uint16 pendingEpoch; // the provider epoch the pending request was made in
        // slot 2
        uint128 bet;
        uint32 joinWindow;
        // slots 3..6
        address[4] players; // join order
    }

    /// @dev Global settings read by every roll, in one slot.
    struct Settings {
        address provider;
        uint32 callbackGasLimit;
        uint32 entropyTimeout;
        uint16 houseFeeBps;
        // Grows with every provider change, from 1. Pyth numbers requests per provider, so a sequence
        // number alone does not name a request once the provider has changed; (epoch, sequence) does.
        uint16 providerEpoch;
    }

    /// @dev The bounds a lobby's times must lie within, in one slot.
    struct TimeBounds {
        uint32 joinMin;
        uint32 joinMax;
        uint32 moveMin;
        uint32 moveMax;
    }

    /// @dev A token's bet limits; a token is allowed exactly when maxBet is not 0.
    struct BetLimits {
        uint128 minBet;
        uint128 maxBet;
    }

    IEntropyV2 private immutable ENTROPY;

    Settings private _settings;
    TimeBounds private _bounds;
    uint256 public nextGameId = 1;

    mapping(uint256 gameId => Game) private _games;
    mapping(uint256 gameId => mapping(address player => PlayerState)) private _sheets;
    mapping(uint256 gameId => address[]) private _invitees;
    mapping(address token => BetLimits) private _betLimits;
    mapping(address token => mapping(address account => uint256)) private _credits;
    mapping(address token => uint256) private _treasury;
    PendingRolls.Registry private _pending;
    /// @dev The epoch in which each provider was last set; 0 for a provider never used.
    mapping(address provider => uint16) private _providerEpochs;

    constructor(address entropy_, address owner_) Ownable(owner_) {
        if (entropy_ == address(0)) revert ZeroAddress();
        ENTROPY = IEntropyV2(entropy_);
        _settings = Settings({
            provider: ENTROPY.getDefaultProvider(),
            callbackGasLimit: 100_000,
            entropyTimeout: 5 minutes,
            houseFeeBps: 0,
            providerEpoch: 1
        });
        _providerEpochs[_settings.provider] = 1;
        _bounds = TimeBounds({joinMin: 60, joinMax: 7 days, moveMin: 60, moveMax: 7 days});
        _pending.prewarm();
    }

    // ================================================================== lobby

    /// @inheritdoc IDiceHall
    function createGame(
        GameConfig calldata cfg
    ) external payable whenNotPaused nonReentrant returns (uint256 gameId) {
        if (cfg.seats < 2 || cfg.seats > 4) revert SeatsOutOfRange(cfg.seats);
        Scoring.boxCount(cfg.ruleSet); // reverts UnknownRuleSet
        BetLimits memory limits = _betLimits[cfg.token];
        if (limits.maxBet == 0) revert TokenNotAllowed(cfg.token);
        if (cfg.bet < limits.minBet || cfg.bet > limits.maxBet) {
            revert BetOutOfRange(cfg.bet, limits.minBet, limits.maxBet);
        }
        TimeBounds memory b = _bounds;
        if (cfg.joinWindow < b.joinMin || cfg.joinWindow > b.joinMax) {
            revert JoinWindowOutOfRange(cfg.joinWindow, b.joinMin, b.joinMax);
        }
        if (cfg.moveTimeout < b.moveMin || cfg.moveTimeout > b.moveMax) {
            revert MoveTimeoutOutOfRange(cfg.moveTimeout, b.moveMin, b.moveMax);
        }
        if (cfg.invitees.length != 0) _checkInvitees(cfg.invitees, cfg.seats);

        Settings memory s = _settings;
        gameId = nextGameId++;
        Game storage g = _games[gameId];
        g.token = cfg.token;
        g.seats = cfg.seats;
        g.ruleSet = cfg.ruleSet;
        g.status = GameStatus.Open;
        g.joined = 1;
        g.feeBps = s.houseFeeBps;
        g.clock = uint64(block.timestamp + cfg.joinWindow);
        g.moveTimeout = cfg.moveTimeout;
        g.entropyTimeout = s.entropyTimeout;
        g.bet = cfg.bet;
        g.joinWindow = cfg.joinWindow;
        g.players[0] = msg.sender;
        _sheets[gameId][msg.sender] = PlayerStateLibrary.seatedAt(0);
        if (cfg.invitees.length != 0) _invitees[gameId] = cfg.invitees;

        _collectBet(cfg.token, cfg.bet);
        emit GameCreated(
            gameId,
            msg.sender,
            cfg.token,
            cfg.bet,
            cfg.seats,
            cfg.ruleSet,
            cfg.invitees.length != 0
        );
        for (uint256 i; i < cfg.invitees.length; ++i) emit PlayerInvited(gameId, cfg.invitees[i]);
    }

    /// @inheritdoc IDiceHall
    function joinGame(uint256 gameId) external payable whenNotPaused nonReentrant {
        Game storage g = _openGame(gameId);
        if (block.timestamp >= g.clock) revert JoinWindowClosed(gameId, g.clock);
        if (_sheets[gameId][msg.sender].seated()) revert AlreadyJoined(gameId, msg.sender);
        address[] storage invited = _invitees[gameId];
        if (invited.length != 0 && !_contains(invited, msg.sender)) revert NotInvited(gameId, msg.sender);

        uint8 seat = g.joined;
        g.players[seat] = msg.sender;
        _sheets[gameId][msg.sender] = PlayerStateLibrary.seatedAt(seat);
        // Seats are at most 4, so the count cannot overflow.
        unchecked {
            g.joined = seat + 1;
        }
        _collectBet(g.token, g.bet);
        emit PlayerJoined(gameId, msg.sender);
        if (seat + 1 == g.seats) _start(gameId, g);
    }

    /// @inheritdoc IDiceHall
    function leaveGame(uint256 gameId) external nonReentrant {
        Game storage g = _openGame(gameId);
        PlayerState state = _sheets[gameId][msg.sender];
        if (!state.seated()) revert NotInGame(gameId, msg.sender);
        uint256 seat = state.joinIndex();
        if (seat == 0) {
            _cancel(gameId, g);
            return;
        }

        // Keep the seats contiguous: the last joiner moves into the leaver's seat.
        uint8 last = g.joined - 1;
        if (seat != last) {
            address moved = g.players[last];
            g.players[seat] = moved;
            _sheets[gameId][moved] = PlayerStateLibrary.seatedAt(seat);
        }
        delete g.players[last];
        _sheets[gameId][msg.sender] = PlayerState.wrap(0);
        g.joined = last;
        _credit(g.token, msg.sender, g.bet);
        emit PlayerLeft(gameId, msg.sender);
    }

    /// @inheritdoc IDiceHall
    function cancelGame(uint256 gameId) external nonReentrant {
        Game storage g = _openGame(gameId);
        if (msg.sender != g.players[0] && block.timestamp < g.clock)
            revert JoinWindowStillOpen(gameId, g.clock);
        _cancel(gameId, g);
    }

    // ================================================================== turns

    /// @inheritdoc IDiceHall
    function roll(uint256 gameId, uint8 keepMask) external payable nonReentrant {
        Game storage g = _runningGame(gameId);
        PlayerState state = _currentPlayerState(gameId, g);
        _checkNoPendingRoll(gameId, g);
        uint256 used = state.rollsUsed();
        if (used == MAX_ROLLS) revert NoRollsLeft(gameId);
        if (used == 0) {
            if (keepMask != 0) revert FirstRollKeepsNone(keepMask);
        } else if (keepMask >= Dice.KEEP_ALL) {
            revert InvalidKeepMask(keepMask);
        }

        Settings memory s = _settings;
        uint256 fee = ENTROPY.getFeeV2(s.provider, s.callbackGasLimit);
        if (msg.value < fee) revert InsufficientRollFee(msg.value, fee);
        // Our own contribution to the random number, so that the provider alone cannot choose it.
        bytes32 userRandom = keccak256(abi.encode(block.prevrandao, gameId, msg.sender, g.round, used));
        uint64 sequence = ENTROPY.requestV2{value: fee}(s.provider, userRandom, s.callbackGasLimit);

        _registerRoll(sequence, gameId, s.providerEpoch);
        g.pendingSequence = sequence;
        g.pendingKeepMask = keepMask;
        g.pendingEpoch = s.providerEpoch;
        g.clock = uint64(block.timestamp);
        // Entropy keeps what it is overpaid, so only the fee is forwarded and the rest is the player's.
        if (msg.value > fee) _credit(address(0), msg.sender, msg.value - fee);
        emit RollRequested(gameId, msg.sender, sequence, keepMask);
    }

    /// @notice Pyth Entropy's callback (the IEntropyConsumer entry point). It runs under the gas limit asked
    /// for, so it stays small, and it ignores unknown or superseded requests instead of reverting.
    /// A late answer from a provider used before is still delivered to the request it was made for.
    /// @dev Implemented here rather than inherited so that a wrong caller gets a custom error.
    function _entropyCallback(uint64 sequence, address provider, bytes32 randomNumber) external {
        if (msg.sender != address(ENTROPY)) revert NotEntropy(msg.sender);
        uint16 epoch = _providerEpochs[provider];
        if (epoch == 0) return;
        (uint256 gameId, address player) = _pending.ringEntry(sequence);
        Game storage g = _games[gameId];
        if (gameId == 0 || g.pendingSequence != sequence || g.pendingEpoch != epoch) {
            // Not the ring's request: it may have been filed in the overflow mapping.
            (gameId, player) = _pending.takeOverflow(epoch, sequence);
            g = _games[gameId];
            if (gameId == 0 || g.pendingSequence != sequence || g.pendingEpoch != epoch) return;
        }

        PlayerState state = _sheets[gameId][player];
        uint256 dice = Dice.roll(state.dice(), g.pendingKeepMask, randomNumber);
        // At most three rolls a turn: roll() refuses a fourth.
        uint8 rollNumber;
        unchecked {
            rollNumber = uint8(state.rollsUsed() + 1);
        }
        _sheets[gameId][player] = state.withRoll(dice, rollNumber);
        g.pendingSequence = 0;
        g.pendingKeepMask = 0;
        g.clock = uint64(block.timestamp + g.moveTimeout);
        emit DiceRolled(gameId, player, rollNumber, Dice.unpack(dice), sequence, randomNumber);
    }

    /// @inheritdoc IDiceHall
    function score(uint256 gameId, uint8 category) external nonReentrant {
        Game storage g = _runningGame(gameId);
        PlayerState state = _currentPlayerState(gameId, g);
        if (g.pendingSequence != 0) {
            // Past the entropy timeout the player may keep the dice already on the table.
            _checkNoPendingRoll(gameId, g);
            g.pendingSequence = 0;
            g.pendingKeepMask = 0;
        }
        if (state.rollsUsed() == 0) revert NotRolledYet(gameId);
        (uint256 points, uint256 bonus) = Sheet.place(g.ruleSet, state, category);
        _sheets[gameId][msg.sender] = state.withBoxFilled(category, points, bonus == 0 ? 0 : 1);
        emit Scored(gameId, msg.sender, category, points, bonus);
        _passTurn(gameId, g);
    }

    /// @inheritdoc IDiceHall
    function claimTimeout(uint256 gameId) external nonReentrant {
        Game storage g = _runningGame(gameId);
        uint64 deadline = g.pendingSequence == 0 ? g.clock : g.clock + g.entropyTimeout + g.moveTimeout;
        if (block.timestamp <= deadline) revert DeadlineNotPassed(gameId, deadline);

        uint256 seat = TurnOrder.at(g.order, g.turn);
        address player = g.players[seat];
        _sheets[gameId][player] = _sheets[gameId][player].withForfeit();
        g.forfeited |= uint8(1 << seat);
        g.pendingSequence = 0;
        g.pendingKeepMask = 0;
        emit PlayerForfeited(gameId, player);

        if (TurnOrder.activeCount(g.forfeited, g.seats) == 1) _settle(gameId, g);
        else _passTurn(gameId, g);
    }

    // ================================================================== money

    /// @inheritdoc IDiceHall
    function withdraw(address token) external nonReentrant {
        uint256 amount = _credits[token][msg.sender];
        if (amount == 0) revert NothingToWithdraw(token, msg.sender);
        _credits[token][msg.sender] = 0;
        _send(token, msg.sender, amount);
        emit Withdrawn(token, msg.sender, amount);
    }

    /// @inheritdoc IDiceHall
    function withdrawTreasury(address token, address to, uint256 amount) external onlyOwner nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 available = _treasury[token];
        if (amount > available) revert TreasuryInsufficient(token, amount, available);
        // amount <= available was just checked.
        unchecked {
            _treasury[token] = available - amount;
        }
        _send(token, to, amount);
        emit TreasuryWithdrawn(token, to, amount);
    }

    // ================================================================== owner

    /// @inheritdoc IDiceHall
    function setTokenConfig(address token, bool allowed, uint128 minBet, uint128 maxBet) external onlyOwner {
        if (allowed) {
            if (maxBet == 0 || minBet > maxBet) revert InvalidBetLimits(minBet, maxBet);
            _betLimits[token] = BetLimits(minBet, maxBet);
        } else {
            delete _betLimits[token];
            (minBet, maxBet) = (0, 0);
        }
        emit TokenConfigured(token, allowed, minBet, maxBet);
    }

    /// @inheritdoc IDiceHall
    function setHouseFee(uint16 bps) external onlyOwner {
        if (bps > MAX_HOUSE_FEE_BPS) revert FeeAboveCap(bps, MAX_HOUSE_FEE_BPS);
        _settings.houseFeeBps = bps;
        emit HouseFeeSet(bps);
    }

    /// @inheritdoc IDiceHall
    function setJoinWindowBounds(uint32 min, uint32 max) external onlyOwner {
        if (min == 0 || min > max) revert InvalidBounds(min, max);
        (_bounds.joinMin, _bounds.joinMax) = (min, max);
        emit JoinWindowBoundsSet(min, max);
    }

    /// @inheritdoc IDiceHall
    function setMoveTimeoutBounds(uint32 min, uint32 max) external onlyOwner {
        if (min == 0 || min > max) revert InvalidBounds(min, max);
        (_bounds.moveMin, _bounds.moveMax) = (min, max);
        emit MoveTimeoutBoundsSet(min, max);
    }

    /// @inheritdoc IDiceHall
    function setEntropyTimeout(uint32 seconds_) external onlyOwner {
        if (seconds_ == 0) revert InvalidSetting(seconds_);
        _settings.entropyTimeout = seconds_;
        emit EntropyTimeoutSet(seconds_);
    }

    /// @inheritdoc IDiceHall
    function setCallbackGasLimit(uint32 gasLimit) external onlyOwner {
        if (gasLimit == 0 || gasLimit > MAX_CALLBACK_GAS_LIMIT) revert InvalidSetting(gasLimit);
        _settings.callbackGasLimit = gasLimit;
        emit CallbackGasLimitSet(gasLimit);
    }

    /// @inheritdoc IDiceHall
    function setEntropyProvider(address provider) external onlyOwner {
        if (provider == address(0)) revert ZeroAddress();
        // A new epoch, so that the new provider's sequence numbers are never taken for the old one's.
        uint16 epoch = _settings.providerEpoch + 1;
        _settings.provider = provider;
        _settings.providerEpoch = epoch;
        _providerEpochs[provider] = epoch;
        emit EntropyProviderSet(provider);
    }

    /// @inheritdoc IDiceHall
    function pause() external onlyOwner {
        _pause();
    }

    /// @inheritdoc IDiceHall
    function unpause() external onlyOwner {
        _unpause();
    }

    // ================================================================== views

    /// @inheritdoc IDiceHall
    function rollFee() external view returns (uint256) {
        Settings memory s = _settings;
        return ENTROPY.getFeeV2(s.provider, s.callbackGasLimit);
    }

    /// @inheritdoc IDiceHall
    function credits(address token, address account) external view returns (uint256) {
        return _credits[token][account];
    }

    /// @inheritdoc IDiceHall
    function treasury(address token) external view returns (uint256) {
        return _treasury[token];
    }

    /// @inheritdoc IDiceHall
    function scoreDice(
        uint8 ruleSet,
        uint8 category,
        uint8[5] calldata dice
    ) external pure returns (uint256) {
        uint256 packed = Dice.pack(dice);
        return Scoring.score(ruleSet, category, Scoring.hand(packed));
    }

    /// @inheritdoc IDiceHall
    function getGame(uint256 gameId) external view returns (GameView memory v) {
        Game storage g = _games[gameId];
        if (g.status == GameStatus.None) revert UnknownGame(gameId);
        v.status = g.status;
        v.config = GameConfig({
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
        bool started = g.status == GameStatus.Running || g.status == GameStatus.Finished;
        uint256 count = started ? g.seats : g.joined;
        v.players = new address[](count);
        for (uint256 i; i < count; ++i) v.players[i] = g.players[started ? TurnOrder.at(g.order, i) : i];
        if (g.status == GameStatus.Open) {
            v.deadline = g.clock;
        } else if (g.status == GameStatus.Running) {
            v.currentSeat = g.turn;
            v.round = g.round;
            if (g.pendingSequence == 0) {
                v.deadline = g.clock;
            } else {
                v.pendingSequence = g.pendingSequence;
                v.rollRequestedAt = g.clock;
                v.pendingKeepMask = g.pendingKeepMask;
            }
        } else if (g.status == GameStatus.Finished) {
            v.round = g.round;
        }
    }

    /// @inheritdoc IDiceHall
    function getPlayer(uint256 gameId, address player) external view returns (PlayerView memory v) {
        Game storage g = _games[gameId];
        if (g.status == GameStatus.None) revert UnknownGame(gameId);
        PlayerState state = _sheets[gameId][player];
        uint8 boxes = Scoring.boxCount(g.ruleSet);
        v.filled = new bool[](boxes);
        v.boxScores = new uint256[](boxes);
        if (!state.seated()) return v;
        v.seated = true;
        bool started = g.status == GameStatus.Running || g.status == GameStatus.Finished;
        v.seat = uint8(
            started ? TurnOrder.positionOf(g.order, state.joinIndex(), g.seats) : state.joinIndex()
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

    /// @inheritdoc IDiceHall
    function tokenConfig(address token) external view returns (TokenConfig memory) {
        BetLimits memory limits = _betLimits[token];
        return TokenConfig({allowed: limits.maxBet != 0, minBet: limits.minBet, maxBet: limits.maxBet});
    }

    /// @inheritdoc IDiceHall
    function houseFeeBps() external view returns (uint16) {
        return _settings.houseFeeBps;
    }

    /// @inheritdoc IDiceHall
    function joinWindowBounds() external view returns (uint32 min, uint32 max) {
        return (_bounds.joinMin, _bounds.joinMax);
    }

    /// @inheritdoc IDiceHall
    function moveTimeoutBounds() external view returns (uint32 min, uint32 max) {
        return (_bounds.moveMin, _bounds.moveMax);
    }

    /// @inheritdoc IDiceHall
    function entropyTimeout() external view returns (uint32) {
        return _settings.entropyTimeout;
    }

    /// @inheritdoc IDiceHall
    function callbackGasLimit() external view returns (uint32) {
        return _settings.callbackGasLimit;
    }

    /// @inheritdoc IDiceHall
    function entropy() external view returns (address) {
        return address(ENTROPY);
    }

    /// @inheritdoc IDiceHall
    function entropyProvider() external view returns (address) {
        return _settings.provider;
    }

    // ================================================================== internals

    function _openGame(uint256 gameId) private view returns (Game storage g) {
        g = _games[gameId];
        if (g.status != GameStatus.Open) {
            if (g.status == GameStatus.None) revert UnknownGame(gameId);
            revert GameNotOpen(gameId, g.status);
        }
    }

    function _runningGame(uint256 gameId) private view returns (Game storage g) {
        g = _games[gameId];
        if (g.status != GameStatus.Running) {
            if (g.status == GameStatus.None) revert UnknownGame(gameId);
            revert GameNotRunning(gameId, g.status);
        }
    }

    /// @dev The caller's state, when it is the caller's turn.
    function _currentPlayerState(uint256 gameId, Game storage g) private view returns (PlayerState state) {
        state = _sheets[gameId][msg.sender];
        uint256 seat = TurnOrder.at(g.order, g.turn);
        if (!state.seated() || state.joinIndex() != seat) revert NotYourTurn(gameId, g.players[seat]);
    }

    function _checkNoPendingRoll(uint256 gameId, Game storage g) private view {
        uint64 sequence = g.pendingSequence;
        if (sequence == 0) return;
        uint64 retryAt = g.clock + g.entropyTimeout;
        if (block.timestamp < retryAt) revert RollPending(gameId, sequence, retryAt);
    }

    /// @dev Files the request under a ring slot unless another game's pending roll still holds it.
    function _registerRoll(uint64 sequence, uint256 gameId, uint16 epoch) private {
        (uint256 other, uint32 low) = _pending.occupant(sequence);
        bool busy;
        if (other != 0 && other != gameId) {
            uint64 otherPending = _games[other].pendingSequence;
            busy = otherPending != 0 && uint32(otherPending) == low;
        }
        _pending.store(epoch, sequence, gameId, msg.sender, busy);
    }

    function _checkInvitees(address[] calldata invitees, uint8 seats) private view {
        if (invitees.length > MAX_INVITEES) revert TooManyInvitees(invitees.length, MAX_INVITEES);
        if (invitees.length < seats - 1) revert NotEnoughInvitees(invitees.length, seats - 1);
        for (uint256 i; i < invitees.length; ++i) {
            address a = invitees[i];
            if (a == address(0) || a == msg.sender) revert InvalidInvitee(a);
            for (uint256 j; j < i; ++j) if (invitees[j] == a) revert InvalidInvitee(a);
        }
    }

    function _contains(address[] storage list, address account) private view returns (bool) {
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) if (list[i] == account) return true;
        return false;
    }

    /// @dev The last seat filled: shuffle the turn order and start the first player's clock.
    function _start(uint256 gameId, Game storage g) private {
        uint8 seats = g.seats;
        // prevrandao decides only who moves first, never the dice.
        uint8 order = TurnOrder.shuffle(uint256(keccak256(abi.encode(block.prevrandao, gameId))), seats);
        g.order = order;
        g.status = GameStatus.Running;
        g.turn = 0;
        g.round = 1;
        g.clock = uint64(block.timestamp + g.moveTimeout);
        address[] memory ordered = new address[](seats);
        for (uint256 i; i < seats; ++i) ordered[i] = g.players[TurnOrder.at(order, i)];
        emit GameStarted(gameId, ordered);
    }

    /// @dev Moves the turn to the next seat that has not forfeited; settles after the last round.
    function _passTurn(uint256 gameId, Game storage g) private {
        (uint8 turn, bool wrapped) = TurnOrder.next(g.order, g.turn, g.forfeited, g.seats);
        if (wrapped) {
            if (g.round == Scoring.boxCount(g.ruleSet)) {
                _settle(gameId, g);
                return;
            }
            // round < box count <= 16
            unchecked {
                ++g.round;
            }
        }
        g.turn = turn;
        g.clock = uint64(block.timestamp + g.moveTimeout);
    }

    /// @dev Totals, winners (ties split the pot), the house fee, and the payouts as credits.
    function _settle(uint256 gameId, Game storage g) private {
        uint8 seats = g.seats;
        uint8 ruleSet = g.ruleSet;
        address[] memory players = new address[](seats);
        uint256[] memory totals = new uint256[](seats);
        uint256 best;
        uint256 winnerCount;
        for (uint256 i; i < seats; ++i) {
            uint256 seat = TurnOrder.at(g.order, i);
            address p = g.players[seat];
            players[i] = p;
            (, , , uint256 total) = Sheet.totals(ruleSet, _sheets[gameId][p]);
            totals[i] = total;
            if ((g.forfeited >> seat) & 1 == 1) continue;
            if (winnerCount == 0 || total > best) (best, winnerCount) = (total, 1);
            else if (total == best) ++winnerCount;
        }
        address[] memory winners = new address[](winnerCount);
        uint256 w;
        for (uint256 i; i < seats; ++i) {
            if ((g.forfeited >> TurnOrder.at(g.order, i)) & 1 == 0 && totals[i] == best)
                winners[w++] = players[i];
        }

        uint256 pot = uint256(g.bet) * seats;
        uint256 fee = (pot * g.feeBps) / BPS;
        uint256 share = (pot - fee) / winnerCount;
        g.status = GameStatus.Finished;
        g.pendingSequence = 0;
        address token = g.token;
        if (fee != 0) _treasury[token] += fee;
        // The first winner in turn order also takes what does not divide evenly.
        _credit(token, winners[0], share + (pot - fee - share * winnerCount));
        for (uint256 i = 1; i < winnerCount; ++i) _credit(token, winners[i], share);
        emit GameFinished(gameId, token, ruleSet, players, totals, winners, share, fee);
    }

    function _cancel(uint256 gameId, Game storage g) private {
        g.status = GameStatus.Cancelled;
        uint256 joined = g.joined;
        for (uint256 i; i < joined; ++i) _credit(g.token, g.players[i], g.bet);
        emit GameCancelled(gameId);
    }

    function _credit(address token, address account, uint256 amount) private {
        if (amount == 0) return;
        _credits[token][account] += amount;
        emit Credited(token, account, amount);
    }

    /// @dev Takes the bet: the exact native value, or exactly `bet` tokens (fee-on-transfer tokens are refused).
    function _collectBet(address token, uint256 bet) private {
        if (token == address(0)) {
            if (msg.value != bet) revert WrongPayment(msg.value, bet);
            return;
        }
        if (msg.value != 0) revert WrongPayment(msg.value, 0);
        IERC20 t = IERC20(token);
        uint256 before = t.balanceOf(address(this));
        t.safeTransferFrom(msg.sender, address(this), bet);
        uint256 afterwards = t.balanceOf(address(this));
        uint256 received = afterwards > before ? afterwards - before : 0;
        if (received != bet) revert TransferAmountMismatch(token, bet, received);
    }

    function _send(address token, address to, uint256 amount) private {
        if (token == address(0)) {
            (bool ok, ) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to, amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
