// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";
import {EntropyErrors} from "@pythnetwork/entropy-sdk-solidity/EntropyErrors.sol";

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
    /// @notice The heaviest callback (a 4-seat order draw filed in the overflow map) needs well under this.
    uint32 public constant MIN_CALLBACK_GAS_LIMIT = 60_000;
    /// @notice The floor of the entropy timeout setting (seconds). A game keeps its value for the record only: since
    /// an accepted request is never replaced, nothing waits for it; a refused roll waits RETRY_FLOOR.
    uint32 public constant MIN_ENTROPY_TIMEOUT = 30 minutes;
    /// @notice How long after a refusal the roll may be asked again (seconds): from the next block on chains whose
    /// blocks are a second or more apart. Asking again in the refusal's own block would meet the same backlog.
    uint32 private constant RETRY_FLOOR = 1;
    /// @notice The shortest call-off window: a roll must have been outstanding this long before its game can be
    /// called off, so whoever wants a call-off must keep every other player's retry refused all that time.
    uint32 public constant MIN_CALL_OFF_WINDOW = 6 hours;
    /// @notice The longest call-off window, so that every game still ends in bounded time.
    uint32 public constant MAX_CALL_OFF_WINDOW = 7 days;
    /// @notice A game's roll fee cap is this multiple of its provider's fee when the lobby opened; a dearer quote
    /// is a refusal (the clock stays stopped), so a provider cannot price a player out of their turn.
    uint256 public constant ROLL_FEE_CAP_MULTIPLE = 10;
    /// @dev Salt of the turn order draw, so that it never shares a hash with a die of the same number.
    bytes32 private constant ORDER_DRAW = keccak256("DiceHall.turnOrder");
    uint256 private constant BPS = 10_000;
    /// @dev keccak256 of Panic(0x11)'s revert data: an arithmetic overflow.
    bytes32 private constant PANIC_OVERFLOW = keccak256(
        hex"4e487b710000000000000000000000000000000000000000000000000000000000000011"
    );
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
        uint8 order; // turn order: TurnOrder packing, position -> join index; 0 until the first roll draws it
        uint8 forfeited; // bit j set = the player at join index j forfeited
        // slot 1: everything the Entropy callback reads and writes of the game
        // Lobby: when the join window closes. Running: the current move deadline, or, while a roll is out,
        // the time of its latest attempt (the deadline does not run while the dice are out).
        uint64 clock;
        uint64 pendingSequence; // the latest request of the roll that is out; 0 if none was accepted
        uint48 rollSince; // when the roll that is out was first asked for: its call-off window runs from here
        uint32 moveTimeout;
        uint8 pendingKeepMask; // the keep mask of the roll that is out, fixed for all its attempts
        uint8 attempts; // Entropy requests made for the roll that is out (saturating); 0 when no roll is out
        uint16 rollTag; // rolls delivered so far: every attempt of the roll that is out is filed under it
        uint16 providerId; // this game's Entropy provider, fixed at creation
        // slot 2: what a roll reads besides, all fixed at creation
        uint96 rollFeeCap;
        uint32 callbackGasLimit;
        uint32 entropyTimeout;
        uint32 callOffWindow;
        uint32 joinWindow;
        // slot 3
        uint128 bet;
        // slots 4..7
        address[4] players; // join order
    }

    /// @dev The settings a new lobby copies, in one slot.
    struct Settings {
        address provider;
        uint32 callbackGasLimit;
        uint32 entropyTimeout;
        uint16 houseFeeBps;
        // Pyth numbers requests per provider, so a sequence number alone does not name a request once the
        // provider has changed; (provider id, sequence) does. A provider's id is given once and never changes.
        uint16 providerId;
    }

    /// @dev The bounds a lobby's times must lie within, and the call-off window it copies, in one slot.
    struct TimeBounds {
        uint32 joinMin;
        uint32 joinMax;
        uint32 moveMin;
        uint32 moveMax;
        uint32 callOffWindow;
    }

    /// @dev A token's bet limits; a token is allowed exactly when maxBet is not 0.
    struct BetLimits {
        uint128 minBet;
        uint128 maxBet;
    }

    IEntropyV2 private immutable ENTROPY;
    /// @dev The provider at deployment, id 1: the callback knows its id without a storage read.
    address private immutable FIRST_PROVIDER;

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
    /// @dev Every provider ever set, by the id it got the first time (ids from 1).
    mapping(address provider => uint16) private _providerIds;
    mapping(uint16 providerId => address) private _providers;
    uint16 private _providerCount;

    constructor(address entropy_, address owner_) Ownable(owner_) {
        if (entropy_ == address(0)) revert ZeroAddress();
        ENTROPY = IEntropyV2(entropy_);
        address provider = ENTROPY.getDefaultProvider();
        FIRST_PROVIDER = provider;
        _settings = Settings({
            provider: provider,
            callbackGasLimit: 100_000,
            entropyTimeout: MIN_ENTROPY_TIMEOUT,
            houseFeeBps: 0,
            providerId: 1
        });
        _providerIds[provider] = 1;
        _providers[1] = provider;
        _providerCount = 1;
        _bounds = TimeBounds({
            joinMin: 60,
            joinMax: 7 days,
            moveMin: 60,
            moveMax: 7 days,
            callOffWindow: 24 hours
        });
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
        _fixEntropySettings(g, s, b.callOffWindow);
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
        if (seat + 1 == g.seats) _start(g);
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
        uint8 attempts = g.attempts;
        // Whose dice these are: the player to move, or nobody yet while the first roll draws the order.
        address player;
        uint256 used;
        if (attempts != 0) {
            // Asking again for a refused roll: anyone may (a player, the hall's keeper, a well-wisher), paying the
            // fee, and the dice stay the mover's. A refused attempt has no number, so no one gains a choice.
            uint64 callOffAt = _callOffAt(g);
            if (block.timestamp >= callOffAt) revert CallOffWindowOver(gameId, callOffAt);
            // An accepted request is never replaced (retryAt 0): its number is delivered or the game called off.
            uint64 retryAt = _retryAt(g);
            if (retryAt == 0 || block.timestamp < retryAt)
                revert RollPending(gameId, g.pendingSequence, retryAt);
            if (keepMask != g.pendingKeepMask) revert KeepMaskLocked(gameId, g.pendingKeepMask);
            if (g.order != 0) player = g.players[TurnOrder.at(g.order, g.turn)];
            // Saturates: past 255 attempts only "some roll is out" matters.
            if (attempts != type(uint8).max) ++attempts;
        } else {
            if (g.order == 0) {
                // The first roll of the game draws the turn order: any seated player may make it.
                if (!_sheets[gameId][msg.sender].seated()) revert NotInGame(gameId, msg.sender);
            } else {
                used = _currentPlayerState(gameId, g).rollsUsed();
                player = msg.sender;
            }
            if (used == MAX_ROLLS) revert NoRollsLeft(gameId);
            if (used == 0) {
                if (keepMask != 0) revert FirstRollKeepsNone(keepMask);
            } else if (keepMask >= Dice.KEEP_ALL) {
                revert InvalidKeepMask(keepMask);
            }
            attempts = 1;
            g.rollSince = uint48(block.timestamp);
            g.pendingKeepMask = keepMask;
        }
        g.attempts = attempts;
        g.clock = uint64(block.timestamp);
        _request(gameId, g, player, attempts);
    }

    /// @dev Asks Entropy for the roll's number. A refusal does not revert: the attempt is counted and the clock
    /// stays stopped, so a provider that refuses, or prices the roll above the game's cap, cannot time the player
    /// out. Only Entropy's own errors are refusals: anything else reverts and counts nothing.
    function _request(uint256 gameId, Game storage g, address player, uint8 attempt) private {
        uint16 providerId = g.providerId;
        address provider = _providers[providerId];
        uint32 gasLimit = g.callbackGasLimit;
        uint256 cap = g.rollFeeCap;
        bytes memory reason;
        uint256 gasBefore = gasleft();
        uint256 quote;
        try ENTROPY.getFeeV2(provider, gasLimit) returns (uint128 fee) {
            quote = fee;
            if (fee <= cap) {
                if (msg.value < fee) revert InsufficientRollFee(msg.value, fee);
                // Our own contribution to the random number, so that the provider alone cannot choose it.
                bytes32 userRandom = keccak256(
                    abi.encode(block.prevrandao, gameId, msg.sender, g.round, g.rollTag, attempt)
                );
                gasBefore = gasleft();
                try ENTROPY.requestV2{value: fee}(provider, userRandom, gasLimit) returns (uint64 sequence) {
                    _registerRoll(sequence, gameId, g, player);
                    g.pendingSequence = sequence;
                    // Entropy keeps what it is overpaid, so only the fee is forwarded and the rest is the roller's.
                    // msg.value >= fee was checked above.
                    unchecked {
                        _credit(address(0), msg.sender, msg.value - fee);
                    }
                    emit RollRequested(gameId, msg.sender, sequence, g.pendingKeepMask);
                    return;
                } catch (bytes memory r) {
                    reason = _refusal(r, gasBefore);
                    // Only a quote's overflow is a price: a request's is a failure like any other.
                    if (reason.length == 0) revert EntropyCallFailed();
                }
            }
        } catch (bytes memory r) {
            reason = _refusal(r, gasBefore);
            // An empty reason here is a quote that overflowed: a price above any cap.
            if (reason.length == 0) quote = type(uint256).max;
        }
        if (reason.length == 0) reason = abi.encodeWithSelector(RollFeeAboveCap.selector, quote, cap);
        _credit(address(0), msg.sender, msg.value);
        emit RollRefused(gameId, msg.sender, g.pendingKeepMask, reason);
    }

    /// @dev What a failed Entropy call means. One of Entropy's own errors is a refusal, returned as the reason.
    /// An arithmetic overflow (Panic 0x11, only a quote can give one) returns an empty reason: a price above
    /// any cap. Anything else, and any failure that left us too little gas (an out-of-gas the roller could
    /// cause, however deep inside Entropy it happened), reverts and counts nothing.
    function _refusal(bytes memory reason, uint256 gasBefore) private view returns (bytes memory) {
        // A call that ran out of gas, or whose own inner call did, leaves us at most about 2/64 of gasBefore.
        if (gasleft() <= gasBefore / 16) revert EntropyCallFailed();
        if (keccak256(reason) == PANIC_OVERFLOW) return "";
        if (reason.length != 4 || !_isEntropyError(bytes4(bytes32(reason)))) revert EntropyCallFailed();
        return reason;
    }

    /// @dev Whether `selector` is one of the errors the Entropy SDK declares (EntropyErrors) that a fee quote or a
    /// request can raise; the others belong to reveals, registration and upgrades.
    function _isEntropyError(bytes4 selector) private pure returns (bool) {
        return
            selector == EntropyErrors.LastRevealedTooOld.selector ||
            selector == EntropyErrors.OutOfRandomness.selector ||
            selector == EntropyErrors.NoSuchProvider.selector ||
            selector == EntropyErrors.InsufficientFee.selector ||
            selector == EntropyErrors.InsufficientGas.selector ||
            selector == EntropyErrors.MaxGasLimitExceeded.selector ||
            selector == EntropyErrors.AssertionFailure.selector;
    }

    /// @notice Pyth Entropy's callback (the IEntropyConsumer entry point). It runs under the gas limit asked
    /// for, so it stays small, and it ignores unknown or superseded requests instead of reverting.
    /// A late answer from a provider used before is still delivered to the request it was made for.
    /// @dev Implemented here rather than inherited so that a wrong caller gets a custom error.
    function _entropyCallback(uint64 sequence, address provider, bytes32 randomNumber) external {
        if (msg.sender != address(ENTROPY)) revert NotEntropy(msg.sender);
        uint16 providerId = provider == FIRST_PROVIDER ? 1 : _providerIds[provider];
        if (providerId == 0) return;
        (uint256 gameId, address player, uint16 tag) = _pending.ringEntry(sequence);
        Game storage g = _games[gameId];
        if (gameId == 0 || !_waitsFor(g, tag, providerId)) {
            // Not the ring's request: it may have been filed in the overflow mapping.
            (gameId, player, tag) = _pending.takeOverflow(providerId, sequence);
            g = _games[gameId];
            // Only the roll's one accepted request gives the dice; any answer of an earlier roll is ignored.
            if (gameId == 0 || !_waitsFor(g, tag, providerId)) return;
        }
        // A roll filed without a player is the game's first: its number draws the order first.
        if (player == address(0)) player = _drawOrder(gameId, g, randomNumber);

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
        g.attempts = 0;
        // At most 4 seats x 16 rounds x 3 rolls a game.
        unchecked {
            ++g.rollTag;
        }
        g.clock = uint64(block.timestamp + g.moveTimeout);
        emit DiceRolled(gameId, player, rollNumber, Dice.unpack(dice), sequence, randomNumber);
    }

    /// @inheritdoc IDiceHall
    function score(uint256 gameId, uint8 category) external nonReentrant {
        Game storage g = _runningGame(gameId);
        PlayerState state = _currentPlayerState(gameId, g);
        // The dice on the table are not a choice while a roll is out: its number may already be known.
        if (g.attempts != 0) revert RollPending(gameId, g.pendingSequence, _retryAt(g));
        if (state.rollsUsed() == 0) revert NotRolledYet(gameId);
        (uint256 points, uint256 bonus) = Sheet.place(g.ruleSet, state, category);
        _sheets[gameId][msg.sender] = state.withBoxFilled(category, points, bonus == 0 ? 0 : 1);
        emit Scored(gameId, msg.sender, category, points, bonus);
        _passTurn(gameId, g);
    }

    /// @inheritdoc IDiceHall
    function claimTimeout(uint256 gameId) external nonReentrant {
        Game storage g = _runningGame(gameId);
        (uint64 deadline, bool callOff) = _deadline(g);
        if (block.timestamp <= deadline) revert DeadlineNotPassed(gameId, deadline);
        g.pendingSequence = 0;
        g.pendingKeepMask = 0;
        g.attempts = 0;
        if (callOff) {
            _callOff(gameId, g);
            return;
        }

        uint256 seat = TurnOrder.at(g.order, g.turn);
        address player = g.players[seat];
        _sheets[gameId][player] = _sheets[gameId][player].withForfeit();
        g.forfeited |= uint8(1 << seat);
        emit PlayerForfeited(gameId, player);

        if (TurnOrder.activeCount(g.forfeited, g.seats) == 1) _settle(gameId, g);
        else _passTurn(gameId, g);
    }

    /// @dev While a roll is out (`clock` is its latest attempt): when it may be asked of Entropy again. Only a
    /// refused roll may, from the next second on (a later block); 0 when it may not: an accepted request is out
    /// (one per roll, never replaced), or the call-off comes first.
    function _retryAt(Game storage g) private view returns (uint64 at) {
        if (g.pendingSequence != 0) return 0;
        at = g.clock + RETRY_FLOOR;
        if (at >= _callOffAt(g)) at = 0;
    }

    /// @dev While a roll is out: when the game may be called off, its call-off window after the roll's first attempt.
    function _callOffAt(Game storage g) private view returns (uint64) {
        return uint64(g.rollSince) + g.callOffWindow;
    }

    /// @dev Whether the game is waiting for the roll filed under `tag` from this provider.
    function _waitsFor(Game storage g, uint16 tag, uint16 providerId) private view returns (bool) {
        return g.attempts != 0 && g.rollTag == tag && g.providerId == providerId;
    }

    /// @dev When claimTimeout becomes possible, and whether it then calls the game off rather than forfeiting
    /// the player to move. Nobody forfeits while a roll is out: the game is called off once the roll has been out
    /// for its whole call-off window; so it is if nobody drew the order in time.
    function _deadline(Game storage g) private view returns (uint64 deadline, bool callOff) {
        if (g.attempts == 0) return (g.clock, g.order == 0);
        return (_callOffAt(g), true);
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
        if (seconds_ < MIN_ENTROPY_TIMEOUT) revert InvalidSetting(seconds_);
        _settings.entropyTimeout = seconds_;
        emit EntropyTimeoutSet(seconds_);
    }

    /// @inheritdoc IDiceHall
    function setCallOffWindow(uint32 seconds_) external onlyOwner {
        if (seconds_ < MIN_CALL_OFF_WINDOW || seconds_ > MAX_CALL_OFF_WINDOW) revert InvalidSetting(seconds_);
        _bounds.callOffWindow = seconds_;
        emit CallOffWindowSet(seconds_);
    }

    /// @inheritdoc IDiceHall
    function setCallbackGasLimit(uint32 gasLimit) external onlyOwner {
        if (gasLimit < MIN_CALLBACK_GAS_LIMIT || gasLimit > MAX_CALLBACK_GAS_LIMIT)
            revert InvalidSetting(gasLimit);
        _settings.callbackGasLimit = gasLimit;
        emit CallbackGasLimitSet(gasLimit);
    }

    /// @inheritdoc IDiceHall
    function setEntropyProvider(address provider) external onlyOwner {
        // Entropy's registration is open to anyone, and a provider knows its numbers in advance: so the hall
        // trusts Pyth's choice of provider and no other.
        address defaultProvider = ENTROPY.getDefaultProvider();
        if (provider != defaultProvider) revert NotDefaultProvider(provider, defaultProvider);
        uint16 id = _providerIds[provider];
        if (id == 0) {
            id = ++_providerCount;
            _providerIds[provider] = id;
            _providers[id] = provider;
        }
        _settings.provider = provider;
        _settings.providerId = id;
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
    function gameRollFee(uint256 gameId) external view returns (uint256) {
        Game storage g = _games[gameId];
        if (g.status == GameStatus.None) revert UnknownGame(gameId);
        return ENTROPY.getFeeV2(_providers[g.providerId], g.callbackGasLimit);
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
        v.provider = _providers[g.providerId];
        v.callbackGasLimit = g.callbackGasLimit;
        v.callOffWindow = g.callOffWindow;
        v.rollFeeCap = g.rollFeeCap;
        v.orderDrawn = g.order != 0;
        uint256 count = v.orderDrawn ? g.seats : g.joined;
        v.players = new address[](count);
        for (uint256 i; i < count; ++i) v.players[i] = g.players[v.orderDrawn ? TurnOrder.at(g.order, i) : i];
        if (g.status != GameStatus.Running) {
            if (g.status == GameStatus.Open) v.deadline = g.clock;
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

    /// @inheritdoc IDiceHall
    function callOffWindow() external view returns (uint32) {
        return _bounds.callOffWindow;
    }

    // ================================================================== internals

    /// @dev What a new lobby keeps of the Entropy settings for its whole life, and its roll fee cap: a multiple
    /// of its provider's fee now (of 1 wei if that is free), saturating at what the game stores.
    function _fixEntropySettings(Game storage g, Settings memory s, uint32 callOffWindow_) private {
        g.providerId = s.providerId;
        g.entropyTimeout = s.entropyTimeout;
        g.callbackGasLimit = s.callbackGasLimit;
        g.callOffWindow = callOffWindow_;
        uint256 fee = ENTROPY.getFeeV2(s.provider, s.callbackGasLimit);
        uint256 cap = (fee == 0 ? 1 : fee) * ROLL_FEE_CAP_MULTIPLE;
        g.rollFeeCap = cap > type(uint96).max ? type(uint96).max : uint96(cap);
    }

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

    /// @dev Files the request under a ring slot unless a request that may still give a game its dice holds it
    /// (another game's: a roll has one accepted request at most).
    function _registerRoll(uint64 sequence, uint256 gameId, Game storage g, address player) private {
        (uint256 other, uint16 otherTag, ) = _pending.occupant(sequence);
        bool busy;
        if (other != 0) {
            Game storage o = _games[other];
            busy = o.attempts != 0 && o.rollTag == otherTag;
        }
        _pending.store(g.providerId, sequence, gameId, g.rollTag, player, busy);
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

    /// @dev The last seat filled: play starts once the first roll draws the order; that roll is due in time.
    function _start(Game storage g) private {
        g.status = GameStatus.Running;
        g.round = 1;
        g.clock = uint64(block.timestamp + g.moveTimeout);
    }

    /// @dev The first roll's number draws the turn order (so no one can choose it by when or how they join);
    /// its dice are the first player's. Returns that player.
    function _drawOrder(
        uint256 gameId,
        Game storage g,
        bytes32 randomNumber
    ) private returns (address first) {
        uint8 seats = g.seats;
        uint8 order = TurnOrder.shuffle(uint256(keccak256(abi.encode(randomNumber, ORDER_DRAW))), seats);
        g.order = order;
        address[] memory ordered = new address[](seats);
        for (uint256 i; i < seats; ++i) ordered[i] = g.players[TurnOrder.at(order, i)];
        emit GameStarted(gameId, ordered);
        return ordered[0];
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

    /// @dev A running game that cannot go on through no one's fault: the pot, without a house fee, is split
    /// among the players still in; the first of them in turn (or join) order also takes the remainder.
    function _callOff(uint256 gameId, Game storage g) private {
        g.status = GameStatus.Cancelled;
        (uint8 seats, uint8 order, uint8 forfeited, address token) = (g.seats, g.order, g.forfeited, g.token);
        uint256 pot = uint256(g.bet) * seats;
        uint256 active = TurnOrder.activeCount(forfeited, seats);
        uint256 share = pot / active;
        uint256 remainder = pot % active;
        for (uint256 i; i < seats; ++i) {
            uint256 seat = order == 0 ? i : TurnOrder.at(order, i);
            if ((forfeited >> seat) & 1 == 1) continue;
            _credit(token, g.players[seat], share + remainder);
            remainder = 0;
        }
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
