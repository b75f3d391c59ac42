// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {DiceHallStorage} from "./DiceHallStorage.sol";
import {PlayerState} from "./types/PlayerState.sol";
import {Dice} from "./libraries/Dice.sol";
import {Scoring} from "./libraries/Scoring.sol";
import {Sheet} from "./libraries/Sheet.sol";
import {TurnOrder} from "./libraries/TurnOrder.sol";

/// @title DiceHallDesk: the hall's front desk, everything a move of a game never pays for: sessions (opening,
/// revoking, refuelling and paying them out), payouts to a player's own address, the end of a match's games and its
/// settlement, the treasury, the owner's settings and the long views.
/// @notice DiceHall deploys it in its constructor and delegatecalls it for these functions only, so they run on
/// DiceHall's storage, at DiceHall's address, with DiceHall's owner: players and the books know one address.
/// Called directly it acts on its own empty storage, which nothing reads.
/// @dev It exists because DiceHall with sessions and credit payments does not fit EIP-170's 24 576 bytes; a roll,
/// a score and the Entropy callback stay in DiceHall, with no delegatecall. Its money goes through the same
/// DiceHallStorage primitives as DiceHall's (_owe, _payPot, _credit): a match's pot is paid by the code that pays a
/// single game's. EIP712's two fallback strings come after DiceHallStorage's layout and are never written
/// ("DiceHall" and "1" are short strings kept in code); test/storageLayout.test.ts holds the layouts equal.
contract DiceHallDesk is DiceHallStorage, EIP712 {
    using SafeERC20 for IERC20;

    /// @dev The typed data a session key signs to agree to act for `player` with this grant (core/contract/
    /// sessionConsent.ts builds the same).
    /// A constant: the compiler hashes it, so the string's length costs nothing at run time.
    // solhint-disable-next-line gas-small-strings
    bytes32 private constant SESSION_CONSENT_TYPEHASH = keccak256(
        "SessionConsent(address player,address key,uint64 expiresAt,uint128 feeAllowance,uint128 keyGas)"
    );

    /// @dev The hall that deployed this code: the code that moves money runs only on its storage.
    address private immutable HALL;

    constructor(address entropy_) DiceHallStorage(entropy_, msg.sender) EIP712("DiceHall", "1") {
        HALL = msg.sender;
    }

    modifier onlyHall() {
        if (address(this) != HALL) revert IDiceHall.NotTheHall(address(this));
        _;
    }

    // ================================================================== sessions

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function openSession(
        IDiceHall.SessionGrant calldata grant,
        bytes calldata consent
    ) external payable onlyHall nonReentrant {
        _openSession(grant, consent, msg.value, 0);
    }

    /// @notice The session part of createGameWithSession and joinGameWithSession, run by DiceHall (which holds the
    /// reentrancy lock) once it took the bet: `value` is what is left of msg.value; the session is over when game
    /// `gameId` is.
    function openSessionAfterBet(
        IDiceHall.SessionGrant calldata grant,
        bytes calldata consent,
        uint256 value,
        uint256 gameId
    ) external payable onlyHall {
        _openSession(grant, consent, value, gameId);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function revokeSession() external onlyHall {
        address key = _sessions[msg.sender].key;
        if (key == address(0)) return;
        delete _sessions[msg.sender];
        _closeKey(key, true);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function withdrawFor(address player, address token) external onlyHall nonReentrant {
        KeyGrant storage k = _keyGrant(msg.sender);
        if (player == address(0) || k.player != player || block.timestamp >= k.expiresAt)
            revert IDiceHall.NotSessionKey(msg.sender);
        uint256 amount = _takeAllCredit(token, player);
        if (token == address(0)) {
            amount += k.feeLeft;
            k.feeLeft = 0;
        }
        _payOut(token, player, amount);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function payOut(uint256 gameId, address player, address token) external onlyHall nonReentrant {
        (uint256 owed, uint256 slot, PlayerState state) = _payOutDue(gameId, player, token);
        uint256 amount = owed + slot;
        if (amount == 0) revert IDiceHall.NothingToWithdraw(token, player);
        // A caller who sends too little gas must not turn a payout the receiver could take into a failed one: the
        // receiver gets its whole PAYOUT_GAS (EIP-150 forwards at most 63/64 of what is left) and the fallback
        // to credit still has gas to run.
        uint256 needed = PAYOUT_MIN_GAS;
        if (gasleft() < needed) revert IDiceHall.PayoutGasTooLow(gasleft(), needed);
        if (owed != 0) {
            _sheets[gameId][player] = state.withoutOwed();
            Credit storage c = _credits[token][player];
            // owed <= c.owed <= c.amount (_payOutDue), both below 2^128.
            unchecked {
                (c.amount, c.owed) = (c.amount - uint128(owed), c.owed - uint128(owed));
            }
        }
        if (slot != 0) _endSession(player, _sessions[player].key);
        if (token != address(0)) {
            // An allow-listed token's transfer: the owner vetted its code. One that fails leaves the credit.
            if (!IERC20(token).trySafeTransfer(player, amount)) return _payoutFailed(token, player, amount);
        } else if (!_sendBounded(player, amount)) {
            return _payoutFailed(token, player, amount);
        }
        emit IDiceHall.Withdrawn(token, player, amount);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function payOutAmount(uint256 gameId, address player, address token) external view returns (uint256) {
        (uint256 owed, uint256 slot, ) = _payOutDue(gameId, player, token);
        return owed + slot;
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function refuelKey() external onlyHall nonReentrant {
        KeyGrant storage k = _keyGrant(msg.sender);
        address player = k.player;
        if (player == address(0) || block.timestamp >= k.expiresAt)
            revert IDiceHall.NotSessionKey(msg.sender);
        // A grant names its player only while it is that player's session (_closeKey and _endSession clear it).
        uint256 float = uint256(_sessions[player].floatGwei) * 1 gwei;
        uint256 balance = msg.sender.balance;
        if (balance >= float) revert IDiceHall.KeyFull(msg.sender, balance, float);
        uint256 left = k.feeLeft;
        // balance < float was just checked.
        uint256 amount;
        unchecked {
            amount = float - balance;
        }
        if (amount > left) amount = left;
        if (amount == 0) revert IDiceHall.SessionAllowanceExceeded(player, float - balance, 0);
        // amount <= left.
        unchecked {
            k.feeLeft = uint64(left - amount);
        }
        emit IDiceHall.KeyRefuelled(player, msg.sender, amount);
        _send(address(0), msg.sender, amount);
    }

    /// @dev What payOut(gameId, player, token) owes: what the game left the player (at most their credit), and in
    /// the native coin what their session's slot holds if that session is over (its game is this one and over, or
    /// it expired); and the player's sheet in the game.
    function _payOutDue(
        uint256 gameId,
        address player,
        address token
    ) private view returns (uint256 owed, uint256 slot, PlayerState state) {
        Game storage g = _games[gameId];
        IDiceHall.GameStatus status = g.status;
        if (status != IDiceHall.GameStatus.Finished && status != IDiceHall.GameStatus.Cancelled) {
            if (status == IDiceHall.GameStatus.None) revert IDiceHall.UnknownGame(gameId);
            revert IDiceHall.GameNotOver(gameId, status);
        }
        state = _sheets[gameId][player];
        if (!state.seated()) revert IDiceHall.NotInGame(gameId, player);
        if (token == g.token) {
            owed = state.owed();
            // What the player's own moves spent of it since (a bet from credit, a withdraw) is gone from it.
            uint256 stillOwed = _credits[token][player].owed;
            if (owed > stillOwed) owed = stillOwed;
        }
        if (token == address(0)) {
            Session storage s = _sessions[player];
            KeyGrant storage k = _keyGrant(s.key);
            if (k.player == player && (s.gameId == gameId || block.timestamp >= k.expiresAt))
                slot = k.feeLeft;
        }
    }

    /// @dev A payout that could not be delivered: the amount back in the player's credit, for their own withdraw.
    function _payoutFailed(address token, address player, uint256 amount) private {
        _credits[token][player].amount += _u128(amount);
        emit IDiceHall.PayoutFailed(token, player, amount);
    }

    /// @dev A session over (its game over, or expired) and paid out: its grant and its record cleared, so the key
    /// can do nothing more and is free; the float the key holds is all that stays with it.
    function _endSession(address player, address key) private {
        KeyGrant storage k = _keyGrant(key);
        k.player = address(0);
        k.expiresAt = 0;
        k.feeLeft = 0;
        delete _sessions[player];
        emit IDiceHall.SessionRevoked(player, key);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function session(address player) external view returns (IDiceHall.SessionView memory v) {
        address key = _sessions[player].key;
        KeyGrant memory k = _keyGrant(key);
        if (key == address(0) || k.player != player) return v;
        return
            IDiceHall.SessionView({
                key: key,
                expiresAt: k.expiresAt,
                feeAllowance: k.feeLeft,
                active: block.timestamp < k.expiresAt
            });
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function sessionPlayer(address key) external view returns (address) {
        KeyGrant memory k = _keyGrant(key);
        return block.timestamp < k.expiresAt ? k.player : address(0);
    }

    /// @dev Names the caller's session key, with the key's consent; `value` pays the key's gas and the roll fees
    /// set aside (the credit pays what it does not cover); its rest goes to native credit.
    function _openSession(
        IDiceHall.SessionGrant calldata grant,
        bytes calldata consent,
        uint256 value,
        uint256 gameId
    ) private {
        address key = grant.key;
        if (key == address(0) || key == msg.sender) revert IDiceHall.InvalidSessionKey(key);
        // A key held by another player (active or expired, its fees not yet returned) stays theirs.
        address holder = _keyGrant(key).player;
        if (holder != address(0) && holder != msg.sender) revert IDiceHall.InvalidSessionKey(key);
        uint64 latest = uint64(block.timestamp) + MAX_SESSION_DURATION;
        if (grant.expiresAt <= block.timestamp) revert IDiceHall.SessionExpired(key, grant.expiresAt);
        if (grant.expiresAt > latest) revert IDiceHall.SessionTooLong(grant.expiresAt, latest);
        uint256 allowance = grant.feeAllowance;
        if (allowance > MAX_SESSION_ALLOWANCE)
            revert IDiceHall.SessionAllowanceTooLarge(allowance, MAX_SESSION_ALLOWANCE);
        _checkConsent(grant, consent);
        uint256 keyGas = grant.keyGas;
        if (value < keyGas) revert IDiceHall.WrongPayment(value, keyGas);
        if (keyGas > MAX_KEY_FLOAT) revert IDiceHall.SessionAllowanceTooLarge(keyGas, MAX_KEY_FLOAT);

        address old = _sessions[msg.sender].key;
        if (old != address(0)) _closeKey(old, old != key);
        // Game ids count up by one from 1: 2^48 of them is out of reach. The float rounds up to a whole gwei.
        _sessions[msg.sender] = Session({
            key: key,
            gameId: uint48(gameId),
            floatGwei: uint48((keyGas + 1 gwei - 1) / 1 gwei)
        });
        // expiresAt <= now + 7 days and allowance <= MAX_SESSION_ALLOWANCE were checked above.
        KeyGrant storage k = _keyGrant(key);
        k.player = msg.sender;
        k.expiresAt = uint32(grant.expiresAt);
        k.feeLeft = uint64(allowance);
        emit IDiceHall.SessionOpened(msg.sender, key, grant.expiresAt, grant.feeAllowance, grant.keyGas);
        // value >= keyGas was checked above.
        uint256 rest;
        unchecked {
            rest = value - keyGas;
        }
        if (rest >= allowance) _deposit(address(0), rest - allowance);
        else _spendCredit(address(0), msg.sender, allowance - rest);
        if (keyGas != 0) _send(address(0), key, keyGas);
    }

    /// @dev Reverts unless `consent` is the key's EIP-712 signature of SessionConsent(caller, grant) in this hall's
    /// domain (this chain, this hall: EIP712 rebuilds the separator for the hall's address under delegatecall).
    function _checkConsent(IDiceHall.SessionGrant calldata grant, bytes calldata consent) private view {
        bytes32 digest = _hashTypedDataV4(
            keccak256(
                abi.encode(
                    SESSION_CONSENT_TYPEHASH,
                    msg.sender,
                    grant.key,
                    grant.expiresAt,
                    grant.feeAllowance,
                    grant.keyGas
                )
            )
        );
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(digest, consent);
        if (err != ECDSA.RecoverError.NoError || signer != grant.key)
            revert IDiceHall.InvalidSessionConsent(grant.key, signer);
    }

    /// @dev Ends the caller's grant to `key`: its unspent roll fees go back to the caller's native credit.
    function _closeKey(address key, bool revoked) private {
        KeyGrant storage k = _keyGrant(key);
        if (k.player == msg.sender) {
            uint256 feeLeft = k.feeLeft;
            k.player = address(0);
            k.expiresAt = 0;
            k.feeLeft = 0;
            _credit(address(0), msg.sender, feeLeft);
        }
        if (revoked) emit IDiceHall.SessionRevoked(msg.sender, key);
    }

    /// @dev Sends `amount` (already taken off the books) to `account`, its own address.
    function _payOut(address token, address account, uint256 amount) private {
        if (amount == 0) revert IDiceHall.NothingToWithdraw(token, account);
        _send(token, account, amount);
        emit IDiceHall.Withdrawn(token, account, amount);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function withdrawTreasury(
        address token,
        address to,
        uint256 amount
    ) external onlyHall onlyOwner nonReentrant {
        if (to == address(0)) revert IDiceHall.ZeroAddress();
        uint256 available = _treasury[token];
        if (amount > available) revert IDiceHall.TreasuryInsufficient(token, amount, available);
        // amount <= available was just checked.
        unchecked {
            _treasury[token] = available - amount;
        }
        _send(token, to, amount);
        emit IDiceHall.TreasuryWithdrawn(token, to, amount);
    }

    // ================================================================== matches

    /// @notice A game of a match of two or more games is over: DiceHall's own call, by delegatecall, when its last
    /// box is filled or one player is left (DiceHall has no entry point for it: a caller from outside acts on this
    /// contract's own empty storage). Adds the game to the standings and emits MatchGameFinished; then either
    /// blanks every sheet for the next game, whose first roll draws its order, or settles the match.
    function endMatchGame(uint256 gameId) external onlyHall {
        Game storage g = _games[gameId];
        (uint8 seats, uint8 order, uint8 forfeited, uint8 game) = (g.seats, g.order, g.forfeited, g.game);
        bool last = game == g.games || TurnOrder.activeCount(forfeited, seats) == 1;
        address[] memory players = new address[](seats);
        uint256[] memory totals = new uint256[](seats);
        PlayerState[] memory states = new PlayerState[](seats);
        uint256 best;
        uint256 winnerCount;
        for (uint256 i; i < seats; ++i) {
            uint256 seat = TurnOrder.at(order, i);
            address p = g.players[seat];
            players[i] = p;
            states[i] = _sheets[gameId][p];
            (, , , uint256 total) = Sheet.totals(g.ruleSet, states[i]);
            totals[i] = total;
            if ((forfeited >> seat) & 1 == 1) continue;
            if (winnerCount == 0 || total > best) (best, winnerCount) = (total, 1);
            else if (total == best) ++winnerCount;
        }
        address[] memory winners = new address[](winnerCount);
        uint256 w;
        for (uint256 i; i < seats; ++i) {
            bool won = (forfeited >> TurnOrder.at(order, i)) & 1 == 0 && totals[i] == best;
            if (won) winners[w++] = players[i];
            // The last game's sheets stay for getPlayer to show; earlier ones are blanked for the next game.
            states[i] = states[i].withGameResult(won, totals[i], !last);
            _sheets[gameId][players[i]] = states[i];
        }
        emit IDiceHall.MatchGameFinished(gameId, game, players, totals, winners);
        if (!last) {
            // The next game: round 1, no order until its first roll (by any seated player) draws one.
            g.game = game + 1;
            g.order = 0;
            g.turn = 0;
            g.round = 1;
            g.clock = uint64(block.timestamp + g.moveTimeout);
            return;
        }
        _settleMatch(gameId, g, players, states);
    }

    /// @notice Nobody drew the order of game 2 or later of a match within the move timeout: DiceHall's claimTimeout,
    /// by delegatecall, settles the match on the games already played, as if it had been that many games long
    /// (the game never played has no MatchGameFinished; the match's end is the usual GameFinished, its players in
    /// join order). The standings are in the sheets, blanked for the game that never started.
    function settleMatchOnGamesPlayed(uint256 gameId) external onlyHall {
        Game storage g = _games[gameId];
        uint256 seats = g.seats;
        address[] memory players = new address[](seats);
        PlayerState[] memory states = new PlayerState[](seats);
        for (uint256 i; i < seats; ++i) {
            address p = g.players[i];
            players[i] = p;
            states[i] = _sheets[gameId][p];
        }
        _settleMatch(gameId, g, players, states);
    }

    /// @dev The match's winners among the players still in: the most games won, then the most points; still tied,
    /// they split the pot (the first in the last game's turn order, or join order if settled on a missed draw, also
    /// takes the remainder); the house fee once. The pot is paid in _payPot, as a single game's is.
    function _settleMatch(
        uint256 gameId,
        Game storage g,
        address[] memory players,
        PlayerState[] memory states
    ) private {
        uint256 seats = players.length;
        uint256[] memory points = new uint256[](seats);
        uint256 bestWins;
        uint256 bestPoints;
        uint256 winnerCount;
        for (uint256 i; i < seats; ++i) {
            PlayerState s = states[i];
            points[i] = s.matchPoints();
            if (s.forfeited()) continue;
            uint256 wins = s.matchWins();
            if (winnerCount == 0 || wins > bestWins || (wins == bestWins && points[i] > bestPoints)) {
                (bestWins, bestPoints, winnerCount) = (wins, points[i], 1);
            } else if (wins == bestWins && points[i] == bestPoints) {
                ++winnerCount;
            }
        }
        address[] memory winners = new address[](winnerCount);
        uint256 w;
        for (uint256 i; i < seats; ++i) {
            PlayerState s = states[i];
            if (!s.forfeited() && s.matchWins() == bestWins && points[i] == bestPoints)
                winners[w++] = players[i];
        }

        (uint256 share, uint256 fee) = _payPot(gameId, g, winners);
        emit IDiceHall.GameFinished(gameId, g.token, g.ruleSet, players, points, winners, share, fee);
    }

    /// @notice See IDiceHall; runs by delegatecall from DiceHall.
    function setTokenConfig(address token, bool allowed, uint128 minBet, uint128 maxBet) external onlyOwner {
        if (allowed) {
            if (maxBet == 0 || minBet > maxBet || maxBet > MAX_BET)
                revert IDiceHall.InvalidBetLimits(minBet, maxBet);
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
        _seatsAndStandings(v, g, gameId);
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

    /// @dev getGame's players (in turn order once drawn, else join order) and a match's standings beside them.
    function _seatsAndStandings(IDiceHall.GameView memory v, Game storage g, uint256 gameId) private view {
        uint256 count = v.orderDrawn ? g.seats : g.joined;
        v.players = new address[](count);
        v.games = g.games;
        v.gameNumber = g.game;
        v.wins = new uint8[](count);
        v.points = new uint256[](count);
        for (uint256 i; i < count; ++i) {
            address p = g.players[v.orderDrawn ? TurnOrder.at(g.order, i) : i];
            v.players[i] = p;
            PlayerState s = _sheets[gameId][p];
            v.wins[i] = uint8(s.matchWins());
            v.points[i] = s.matchPoints();
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
