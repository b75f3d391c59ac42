// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {TransientSlot} from "@openzeppelin/contracts/utils/TransientSlot.sol";
import {EntropyErrors} from "@pythnetwork/entropy-sdk-solidity/EntropyErrors.sol";

import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {PlayerState, PlayerStateLibrary} from "./types/PlayerState.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";
import {Sheet} from "./libraries/Sheet.sol";
import {TurnOrder} from "./libraries/TurnOrder.sol";
import {PendingRolls} from "./libraries/PendingRolls.sol";
import {DiceHallStorage} from "./DiceHallStorage.sol";
import {DiceHallDesk} from "./DiceHallDesk.sol";

/// @title DiceHall: lobbies, escrow, Pyth Entropy dice, turns, scoring, timeouts and payouts for dice games.
/// @notice The state machine of docs/PROTOCOL.md; the rules live in the libraries. The owner's settings and
/// the two sheet views run in DiceHallDesk, by delegatecall on this contract's storage (EIP-170).
contract DiceHall is IDiceHall, DiceHallStorage {
    using SafeERC20 for IERC20;
    using PendingRolls for PendingRolls.Registry;

    /// @dev Where KeyGrant's expiresAt and feeLeft start in its slot (after the player's 160 bits).
    uint256 private constant EXPIRES_AT_SHIFT = 160;
    uint256 private constant FEE_LEFT_SHIFT = 192;
    /// @dev The provider at deployment, id 1: the callback knows its id without a storage read.
    address private immutable FIRST_PROVIDER;
    /// @dev The code of the owner's settings and of getGame/getPlayer, deployed with this contract.
    address private immutable ADMIN;

    constructor(address entropy_, address owner_) DiceHallStorage(entropy_, owner_) {
        ADMIN = address(new DiceHallDesk(entropy_));
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
    function createGame(GameConfig calldata cfg) external payable returns (uint256) {
        return _createPaid(cfg);
    }

    /// @inheritdoc IDiceHall
    function createMatch(GameConfig calldata cfg, uint8 games) external payable returns (uint256) {
        _setMatchGames(games);
        return _createPaid(cfg);
    }

    /// @inheritdoc IDiceHall
    function createGameFromCredit(GameConfig calldata cfg) external returns (uint256) {
        return _createFromCredit(cfg);
    }

    /// @inheritdoc IDiceHall
    function createMatchFromCredit(GameConfig calldata cfg, uint8 games) external returns (uint256) {
        _setMatchGames(games);
        return _createFromCredit(cfg);
    }

    /// @inheritdoc IDiceHall
    function createGameWithSession(
        GameConfig calldata cfg,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable returns (uint256) {
        return _createWithSession(cfg, grant, consent);
    }

    /// @inheritdoc IDiceHall
    function createMatchWithSession(
        GameConfig calldata cfg,
        uint8 games,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable returns (uint256) {
        _setMatchGames(games);
        return _createWithSession(cfg, grant, consent);
    }

    /// @dev createGame and createMatch: the bet paid with the call.
    function _createPaid(
        GameConfig calldata cfg
    ) private whenNotPaused nonReentrant returns (uint256 gameId) {
        gameId = _createGame(cfg);
        _collectBet(cfg.token, cfg.bet, msg.value);
    }

    /// @dev createGameFromCredit and createMatchFromCredit: the bet from the caller's credit.
    function _createFromCredit(
        GameConfig calldata cfg
    ) private whenNotPaused nonReentrant returns (uint256 gameId) {
        gameId = _createGame(cfg);
        _spendCredit(cfg.token, msg.sender, cfg.bet);
    }

    /// @dev createGameWithSession and createMatchWithSession.
    function _createWithSession(
        GameConfig calldata cfg,
        SessionGrant calldata grant,
        bytes calldata consent
    ) private whenNotPaused nonReentrant returns (uint256 gameId) {
        gameId = _createGame(cfg);
        _payWithSession(gameId, cfg.token, cfg.bet, grant, consent);
    }

    /// @dev The match length the lobby opened next in this call gets (read and cleared by _createGame).
    function _setMatchGames(uint8 games) private {
        if (games == 0 || games > MAX_GAMES) revert GamesOutOfRange(games);
        TransientSlot.tstore(TransientSlot.asUint256(MATCH_GAMES_SLOT), games);
    }

    /// @inheritdoc IDiceHall
    function joinGame(uint256 gameId) external payable whenNotPaused nonReentrant {
        (address token, uint256 bet) = _joinGame(gameId);
        _collectBet(token, bet, msg.value);
    }

    /// @inheritdoc IDiceHall
    function joinGameFromCredit(uint256 gameId) external whenNotPaused nonReentrant {
        (address token, uint256 bet) = _joinGame(gameId);
        _spendCredit(token, msg.sender, bet);
    }

    /// @inheritdoc IDiceHall
    function joinGameWithSession(
        uint256 gameId,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable whenNotPaused nonReentrant {
        (address token, uint256 bet) = _joinGame(gameId);
        _payWithSession(gameId, token, bet, grant, consent);
    }

    /// @dev Opens the lobby, the caller in seat 0; the caller's wrapper takes the bet. A match of the length a
    /// createMatch call set, else a single game.
    function _createGame(GameConfig calldata cfg) private returns (uint256 gameId) {
        uint8 games = uint8(TransientSlot.tload(TransientSlot.asUint256(MATCH_GAMES_SLOT)));
        if (games == 0) games = 1;
        else TransientSlot.tstore(TransientSlot.asUint256(MATCH_GAMES_SLOT), 0);
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
        gameId = _nextGameId++;
        Game storage g = _games[gameId];
        g.token = cfg.token;
        g.seats = cfg.seats;
        g.ruleSet = cfg.ruleSet;
        g.status = GameStatus.Open;
        g.joined = 1;
        g.feeBps = s.houseFeeBps;
        g.games = games;
        g.game = 1;
        g.clock = uint64(block.timestamp + cfg.joinWindow);
        g.moveTimeout = cfg.moveTimeout;
        _fixEntropySettings(g, s, b.callOffWindow);
        g.bet = cfg.bet;
        g.joinWindow = cfg.joinWindow;
        g.players[0] = msg.sender;
        _sheets[gameId][msg.sender] = PlayerStateLibrary.seatedAt(0);
        if (cfg.invitees.length != 0) _invitees[gameId] = cfg.invitees;

        emit GameCreated(
            gameId,
            msg.sender,
            cfg.token,
            cfg.bet,
            cfg.seats,
            cfg.ruleSet,
            cfg.invitees.length != 0
        );
        if (games != 1) emit MatchCreated(gameId, games);
        for (uint256 i; i < cfg.invitees.length; ++i) emit PlayerInvited(gameId, cfg.invitees[i]);
    }

    /// @dev Seats the caller; the caller's wrapper takes the bet.
    function _joinGame(uint256 gameId) private returns (address token, uint256 bet) {
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
        emit PlayerJoined(gameId, msg.sender);
        if (seat + 1 == g.seats) _start(g);
        return (g.token, g.bet);
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
        // Who rolls: the caller, or the player whose session key the caller is (keyGrant: its grant as read, not 0).
        address roller;
        uint256 keyGrant;
        uint256 used;
        if (attempts != 0) {
            // Asking again for a refused roll: anyone may (a player, the hall's keeper, a well-wisher), paying the
            // fee, and the dice stay the mover's. A refused attempt has no number, so no one gains a choice.
            // A session key of a player seated here asks for its player, the fee from its session's slot.
            (roller, keyGrant) = _retryRoller(gameId);
            uint64 callOffAt = _callOffAt(g);
            if (block.timestamp >= callOffAt) revert CallOffWindowOver(gameId, callOffAt);
            // An accepted request is never replaced (retryAt 0): its number is delivered or the game called off.
            uint64 retryAt = _retryAt(g);
            // No request in the window's last LAST_RETRY_BEFORE_CALL_OFF: the last one accepted has time to come.
            bool lastHour = block.timestamp >= callOffAt - LAST_RETRY_BEFORE_CALL_OFF;
            if (retryAt == 0 || block.timestamp < retryAt || lastHour) {
                if (lastHour && g.pendingSequence == 0) revert CallOffWindowOver(gameId, callOffAt);
                revert RollPending(gameId, g.pendingSequence, retryAt);
            }
            if (keepMask != g.pendingKeepMask) revert KeepMaskLocked(gameId, g.pendingKeepMask);
            if (g.order != 0) player = g.players[TurnOrder.at(g.order, g.turn)];
            // Saturates: past 255 attempts only "some roll is out" matters.
            if (attempts != type(uint8).max) ++attempts;
        } else {
            if (g.order == 0) {
                // The first roll of the game draws the turn order: any seated player may make it.
                (roller, keyGrant) = _seatedRoller(gameId);
            } else {
                PlayerState state;
                (player, state, keyGrant) = _mover(gameId, g);
                used = state.rollsUsed();
                roller = player;
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
        _request(gameId, g, player, attempts, roller, keyGrant, keepMask);
    }

    /// @dev Asks Entropy for the roll's number. A refusal does not revert: the attempt is counted and the clock
    /// stays stopped, so a provider that refuses, or prices the roll above the game's cap, cannot time the player
    /// out. Only Entropy's own errors are refusals: anything else reverts and counts nothing.
    /// A session key's roll pays the fee from the roll fees set aside for its session.
    function _request(
        uint256 gameId,
        Game storage g,
        address player,
        uint8 attempt,
        address roller,
        uint256 keyGrant,
        uint8 keepMask
    ) private {
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
                // A key's fee is taken from its session's fees now, and given back if Entropy refuses.
                if (keyGrant != 0) _takeSessionFee(roller, keyGrant, fee);
                else if (msg.value < fee) revert InsufficientRollFee(msg.value, fee);
                // Our own contribution to the random number, so that the provider alone cannot choose it.
                bytes32 userRandom = keccak256(
                    abi.encode(block.prevrandao, gameId, msg.sender, g.round, g.rollTag, attempt)
                );
                gasBefore = gasleft();
                try ENTROPY.requestV2{value: fee}(provider, userRandom, gasLimit) returns (uint64 sequence) {
                    _registerRoll(sequence, gameId, g, player);
                    g.pendingSequence = sequence;
                    // Entropy keeps what it is overpaid, so a paid roll forwards only the fee; the rest is the roller's.
                    if (keyGrant == 0) _credit(address(0), msg.sender, msg.value - fee);
                    emit RollRequested(gameId, roller, sequence, keepMask);
                    return;
                } catch (bytes memory r) {
                    reason = _refusal(r, gasBefore);
                    // Only a quote's overflow is a price: a request's is a failure like any other.
                    if (reason.length == 0) revert EntropyCallFailed();
                    if (keyGrant != 0) _returnSessionFee(fee);
                }
            }
        } catch (bytes memory r) {
            reason = _refusal(r, gasBefore);
            // An empty reason here is a quote that overflowed: a price above any cap.
            if (reason.length == 0) quote = type(uint256).max;
        }
        if (reason.length == 0) reason = abi.encodeWithSelector(RollFeeAboveCap.selector, quote, cap);
        // A key's roll sent nothing (a call with value is never a key's) and spent nothing.
        _credit(address(0), msg.sender, msg.value);
        emit RollRefused(gameId, roller, keepMask, reason);
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
        (address player, PlayerState state, ) = _mover(gameId, g);
        // The dice on the table are not a choice while a roll is out: its number may already be known.
        if (g.attempts != 0) revert RollPending(gameId, g.pendingSequence, _retryAt(g));
        if (state.rollsUsed() == 0) revert NotRolledYet(gameId);
        (uint256 points, uint256 bonus) = Sheet.place(g.ruleSet, state, category);
        _sheets[gameId][player] = state.withBoxFilled(category, points, bonus == 0 ? 0 : 1);
        emit Scored(gameId, player, category, points, bonus);
        _passTurn(gameId, g);
    }

    /// @inheritdoc IDiceHall
    function claimTimeout(uint256 gameId) external nonReentrant {
        Game storage g = _runningGame(gameId);
        (uint64 deadline, bool callOff) = _deadline(g);
        // A move's deadline is the last second it may be made in; a call-off may be claimed from its moment on,
        // the second roll() refuses from (CallOffWindowOver), so no second is lost between the two.
        if (callOff && g.attempts != 0 ? block.timestamp < deadline : block.timestamp <= deadline)
            revert DeadlineNotPassed(gameId, deadline);
        if (callOff && g.attempts == 0 && g.game > 1) {
            // Nobody drew the order of a match's later game: the match ends on the games played, so that a
            // trailing player cannot get their stake back by not drawing.
            _delegateToAdmin(abi.encodeCall(DiceHallDesk.settleMatchOnGamesPlayed, (gameId)));
            return;
        }
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

        if (TurnOrder.activeCount(g.forfeited, g.seats) == 1) _endGame(gameId, g);
        else _passTurn(gameId, g);
    }

    /// @dev Whether the game is waiting for the roll filed under `tag` from this provider.
    function _waitsFor(Game storage g, uint16 tag, uint16 providerId) private view returns (bool) {
        return g.attempts != 0 && g.rollTag == tag && g.providerId == providerId;
    }

    /// @dev When claimTimeout becomes possible, and whether it then calls the game off rather than forfeiting
    /// the player to move. Nobody forfeits while a roll is out: the game is called off once the roll has been out
    /// for its whole call-off window; so it is if nobody drew the order in time (in game 2 or later of a match,
    /// claimTimeout then settles the match on the games played instead).
    function _deadline(Game storage g) private view returns (uint64 deadline, bool callOff) {
        if (g.attempts == 0) return (g.clock, g.order == 0);
        return (_callOffAt(g), true);
    }

    // ================================================================== money

    /// @inheritdoc IDiceHall
    function withdraw(address token) external nonReentrant {
        uint256 amount = _takeAllCredit(token, msg.sender);
        if (amount == 0) revert NothingToWithdraw(token, msg.sender);
        _send(token, msg.sender, amount);
        emit Withdrawn(token, msg.sender, amount);
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function withdrawFor(address, address) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function payOut(uint256, address, address) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function payOutAmount(uint256, address, address) external view returns (uint256 amount) {
        _viewFromAdmin();
        return amount;
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function refuelKey() external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    function deposit(address token, uint256 amount) external payable nonReentrant {
        if (token == address(0)) {
            if (msg.value != amount) revert WrongPayment(msg.value, amount);
        } else {
            if (_betLimits[token].maxBet == 0) revert TokenNotAllowed(token);
            if (msg.value != 0) revert WrongPayment(msg.value, 0);
            _pull(token, amount);
        }
        _deposit(token, amount);
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function openSession(SessionGrant calldata, bytes calldata) external payable {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function revokeSession() external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function withdrawTreasury(address, address, uint256) external {
        _toAdmin();
    }

    // ================================================================== owner

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setTokenConfig(address, bool, uint128, uint128) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setHouseFee(uint16) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setJoinWindowBounds(uint32, uint32) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setMoveTimeoutBounds(uint32, uint32) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setEntropyTimeout(uint32) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setCallOffWindow(uint32) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setCallbackGasLimit(uint32) external {
        _toAdmin();
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function setEntropyProvider(address) external {
        _toAdmin();
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
    function nextGameId() external view returns (uint256) {
        return _nextGameId;
    }

    /// @inheritdoc IDiceHall
    function credits(address token, address account) external view returns (uint256) {
        return _credits[token][account].amount;
    }

    /// @inheritdoc IDiceHall
    function treasury(address token) external view returns (uint256) {
        return _treasury[token];
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function session(address) external view returns (SessionView memory v) {
        _viewFromAdmin();
        return v;
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function sessionPlayer(address) external view returns (address player) {
        _viewFromAdmin();
        return player;
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk (OpenZeppelin's EIP712, whose verifying contract is then this hall).
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        _viewFromAdmin();
        return (fields, name, version, chainId, verifyingContract, salt, extensions);
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
    /// @dev Runs in DiceHallDesk.
    function getGame(uint256) external view returns (GameView memory v) {
        _viewFromAdmin();
        return v;
    }

    /// @inheritdoc IDiceHall
    /// @dev Runs in DiceHallDesk.
    function getPlayer(uint256, address) external view returns (PlayerView memory v) {
        _viewFromAdmin();
        return v;
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

    /// @dev Runs the call's own calldata in DiceHallDesk on this contract's storage and returns or reverts
    /// with what it did.
    function _toAdmin() private {
        address admin = ADMIN;
        assembly ("memory-safe") {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), admin, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }

    /// @dev _toAdmin for a view: DiceHallDesk's views only read, so calling one from a view is safe; the
    /// compiler cannot know that of a delegatecall, hence the cast.
    function _viewFromAdmin() private view {
        function() internal run = _toAdmin;
        function() internal view asView;
        assembly ("memory-safe") {
            asView := run
        }
        asView();
    }

    /// @dev Runs `data` in DiceHallDesk on this contract's storage; reverts with what it reverted with.
    function _delegateToAdmin(bytes memory data) private {
        address admin = ADMIN;
        assembly ("memory-safe") {
            if iszero(delegatecall(gas(), admin, add(data, 0x20), mload(data), 0, 0)) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
        }
    }

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

    /// @dev The player to move and their state, when the caller is that player or their active session key.
    /// A call without value looks the caller up as a key first (a score's always: it keeps a key's score within
    /// 5 000 gas of a player's); a call that sends value is always the caller's own, so an address someone named
    /// as their key still moves, and pays, for itself.
    function _mover(
        uint256 gameId,
        Game storage g
    ) private view returns (address player, PlayerState state, uint256 keyGrant) {
        uint256 seat = TurnOrder.at(g.order, g.turn);
        // The expiry of the caller's grant if it has expired (to say so), else 0.
        uint32 expired;
        if (msg.value == 0) {
            uint256 grant = _callerGrant();
            // No grant is all zeros (an expiry of 0: never active, nothing to tell); an active one names a player.
            uint32 expiresAt = uint32(grant >> EXPIRES_AT_SHIFT);
            if (block.timestamp < expiresAt) {
                address keyPlayer = address(uint160(grant));
                state = _sheets[gameId][keyPlayer];
                if (state.seated() && state.joinIndex() == seat) return (keyPlayer, state, grant);
            } else {
                expired = expiresAt;
            }
        }
        state = _sheets[gameId][msg.sender];
        if (state.seated() && state.joinIndex() == seat) return (msg.sender, state, 0);
        if (expired != 0) revert SessionExpired(msg.sender, expired);
        revert NotYourTurn(gameId, g.players[seat]);
    }

    /// @dev Who makes a roll any seated player may make: the caller, or (without value) the player whose session
    /// key it is.
    function _seatedRoller(uint256 gameId) private view returns (address roller, uint256 keyGrant) {
        if (_sheets[gameId][msg.sender].seated()) return (msg.sender, 0);
        if (msg.value == 0) {
            keyGrant = _callerGrant();
            roller = address(uint160(keyGrant));
            uint32 expiresAt = uint32(keyGrant >> EXPIRES_AT_SHIFT);
            if (roller != address(0) && block.timestamp >= expiresAt)
                revert SessionExpired(msg.sender, expiresAt);
        }
        if (roller == address(0) || !_sheets[gameId][roller].seated()) revert NotInGame(gameId, msg.sender);
    }

    /// @dev Who asks again for a refused roll (anyone may): a seated caller; without value, the session key of a
    /// player seated here for that player (the fee from the session's fees); anyone else, and any caller that
    /// sends value, for themselves, paying by value. So no one can make another's paid retry a key's.
    function _retryRoller(uint256 gameId) private view returns (address roller, uint256 keyGrant) {
        if (msg.value != 0 || _sheets[gameId][msg.sender].seated()) return (msg.sender, 0);
        uint256 grant = _callerGrant();
        address keyPlayer = address(uint160(grant));
        if (
            keyPlayer != address(0) &&
            block.timestamp < uint32(grant >> EXPIRES_AT_SHIFT) &&
            _sheets[gameId][keyPlayer].seated()
        ) return (keyPlayer, grant);
        return (msg.sender, 0);
    }

    /// @dev The caller's session grant (a KeyGrant: player in the low 160 bits, then expiresAt, then feeLeft at
    /// FEE_LEFT_SHIFT), read as one word: a key's roll loads its slot once and writes it once.
    function _callerGrant() private view returns (uint256 grant) {
        KeyGrant storage k = _keyGrant(msg.sender);
        assembly ("memory-safe") {
            grant := sload(k.slot)
        }
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
    /// its dice are the first player's (in a match, the first who has not forfeited). Returns that player.
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
        // A later game of a match: whoever forfeited in an earlier one has no turn.
        uint8 forfeited = g.forfeited;
        if (forfeited == 0) return ordered[0];
        uint8 turn;
        while ((forfeited >> TurnOrder.at(order, turn)) & 1 == 1) ++turn;
        g.turn = turn;
        return ordered[turn];
    }

    /// @dev Moves the turn to the next seat that has not forfeited; settles after the last round.
    function _passTurn(uint256 gameId, Game storage g) private {
        (uint8 turn, bool wrapped) = TurnOrder.next(g.order, g.turn, g.forfeited, g.seats);
        if (wrapped) {
            if (g.round == Scoring.boxCount(g.ruleSet)) {
                _endGame(gameId, g);
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

    /// @dev A game is over (its last box filled, or one player left): a single game settles here; a match's game
    /// ends in DiceHallDesk (its standings, then the next game or the match's settlement).
    function _endGame(uint256 gameId, Game storage g) private {
        if (g.games == 1) {
            _settle(gameId, g);
            return;
        }
        _delegateToAdmin(abi.encodeCall(DiceHallDesk.endMatchGame, (gameId)));
    }

    /// @dev Totals and winners (ties split the pot); the pot is paid in _payPot, as a match's is.
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

        (uint256 share, uint256 fee) = _payPot(gameId, g, winners);
        emit GameFinished(gameId, g.token, ruleSet, players, totals, winners, share, fee);
    }

    function _cancel(uint256 gameId, Game storage g) private {
        g.status = GameStatus.Cancelled;
        uint256 joined = g.joined;
        (address token, uint256 bet) = (g.token, g.bet);
        for (uint256 i; i < joined; ++i) _owe(gameId, token, g.players[i], bet);
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
            _owe(gameId, token, g.players[seat], share + remainder);
            remainder = 0;
        }
        emit GameCancelled(gameId);
    }

    /// @dev Takes the bet: the exact native `value`, or exactly `bet` tokens (fee-on-transfer tokens are refused).
    function _collectBet(address token, uint256 bet, uint256 value) private {
        if (token == address(0)) {
            if (value != bet) revert WrongPayment(value, bet);
            return;
        }
        if (value != 0) revert WrongPayment(value, 0);
        _pull(token, bet);
    }

    /// @dev Moves exactly `amount` tokens in from the caller.
    function _pull(address token, uint256 amount) private {
        IERC20 t = IERC20(token);
        uint256 before = t.balanceOf(address(this));
        t.safeTransferFrom(msg.sender, address(this), amount);
        uint256 afterwards = t.balanceOf(address(this));
        uint256 received = afterwards > before ? afterwards - before : 0;
        if (received != amount) revert TransferAmountMismatch(token, amount, received);
    }

    /// @dev The bet of a `...WithSession` call: a native bet out of msg.value, an ERC-20 one by transferFrom;
    /// the rest of msg.value opens the session (in DiceHallDesk).
    function _payWithSession(
        uint256 gameId,
        address token,
        uint256 bet,
        SessionGrant calldata grant,
        bytes calldata consent
    ) private {
        uint256 forBet = token == address(0) ? bet : 0;
        uint256 needed = forBet + grant.keyGas;
        if (msg.value < needed) revert WrongPayment(msg.value, needed);
        _collectBet(token, bet, forBet);
        _delegateToAdmin(
            abi.encodeCall(DiceHallDesk.openSessionAfterBet, (grant, consent, msg.value - forBet, gameId))
        );
    }

    /// @dev Takes a key's roll fee from its session's fees (the one slot a key's roll writes beyond a player's),
    /// or reverts with what is left.
    /// `grant` is the caller's grant as roll() read it: nothing between (a fee quote is a static call) writes it.
    /// A free roll writes the grant back unchanged (a warm no-op).
    function _takeSessionFee(address player, uint256 grant, uint256 fee) private {
        uint256 left = grant >> FEE_LEFT_SHIFT;
        if (fee > left) revert SessionAllowanceExceeded(player, fee, left);
        KeyGrant storage k = _keyGrant(msg.sender);
        // fee <= left: the subtraction stays within feeLeft's bits.
        assembly ("memory-safe") {
            sstore(k.slot, sub(grant, shl(FEE_LEFT_SHIFT, fee)))
        }
    }

    /// @dev Gives a refused key's roll its fee back: a refusal spends nothing.
    function _returnSessionFee(uint256 fee) private {
        // It was taken from these fees a moment ago, so it fits.
        unchecked {
            if (fee != 0) _keyGrant(msg.sender).feeLeft += uint64(fee);
        }
    }
}
