// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title The public interface of DiceHall: its structs, errors, events and entry points.
/// @notice Names and shapes here are fixed by docs/DESIGN.md; the app, the scripts and the tests build on them.
interface IDiceHall {
    // ------------------------------------------------------------------ structs

    /// @notice Where a game is in its life.
    enum GameStatus {
        None,
        Open,
        Running,
        Finished,
        Cancelled
    }

    /// @notice What a lobby is opened with; fixed for the life of the game.
    struct GameConfig {
        address token; // address(0) = native coin
        uint128 bet; // per seat
        uint8 seats; // 2..4
        uint8 ruleSet; // 0 Yahtzee, 1 Yatzy, 2 Yazty, 3 Extended
        uint32 joinWindow; // seconds the lobby stays joinable
        uint32 moveTimeout; // seconds a player has for each move
        address[] invitees; // empty = public; else only these may join
    }

    /// @notice One game as the app shows it.
    struct GameView {
        GameStatus status;
        GameConfig config;
        address creator;
        address[] players; // turn order once started; join order while the lobby is open
        uint8 currentSeat; // index into `players` of whose turn it is
        uint8 round; // 1-based while running; 0 in the lobby
        uint64 deadline; // lobby: when the join window closes; running: the current move deadline (0 while a roll is out)
        uint64 pendingSequence; // Entropy sequence number of the roll's accepted request (never replaced), 0 if none (or refused)
        uint64 rollRequestedAt; // when the latest attempt of the outstanding roll was made, 0 if none
        uint8 pendingKeepMask; // the keep mask of the outstanding roll (fixed for all its attempts)
        uint16 houseFeeBps; // fixed when the lobby opened
        uint32 entropyTimeout; // fixed when the lobby opened
        uint256 pot; // bet x seats
        bool orderDrawn; // false from the last join until the first roll's random number draws the turn order
        uint8 entropyAttempts; // Entropy requests made for the outstanding roll (0 = none; saturates at 255)
        uint64 retryAt; // when anyone may ask again for the refused outstanding roll (0 if none, if its request was accepted, or if the retries' end, an hour before the call-off, comes first)
        address provider; // the Entropy provider of this game, fixed when the lobby opened
        uint32 callbackGasLimit; // the callback gas this game's rolls ask for, fixed when the lobby opened
        uint64 callOffAt; // when the game may be called off if the outstanding roll has still not come (0 if none)
        uint32 callOffWindow; // how long a roll may stay out before the game may be called off, fixed at opening
        uint256 rollFeeCap; // a roll quoted above this is a refusal, not a price; fixed when the lobby opened
        uint8 games; // the match length: 1..10 games for one stake (1 = a single game)
        uint8 gameNumber; // the game being played, 1..games; once over, the game the match ended in
        uint8[] wins; // a match's standings, per entry of `players`: games won so far (a tied game is a win for
        // each of its winners); all 0 in a single game, whose result is GameFinished's
        uint256[] points; // a match's, per entry of `players`: points over its games finished so far; all 0 in a
        // single game
    }

    /// @notice One player's sheet in one game, decoded.
    struct PlayerView {
        bool seated;
        uint8 seat; // index in turn order (join order while the lobby is open)
        uint8[5] dice; // 0s before the first roll of a turn
        uint8 rollsUsed; // 0..3 in the current turn
        bool[] filled; // one per box of the rule set
        uint256[] boxScores; // one per box; 0 where open
        uint8 yahtzeeBonusCount;
        uint256 upperTotal;
        uint256 upperBonus;
        uint256 yahtzeeBonus;
        uint256 total; // boxes + bonuses
        bool forfeited;
    }

    /// @notice What the owner allows for one token (address(0) = native coin).
    struct TokenConfig {
        bool allowed;
        uint128 minBet;
        uint128 maxBet;
    }

    /// @notice What a player grants a session key (a key made in the player's browser). The key must agree: its
    /// EIP-712 signature of a SessionConsent (the player and this grant, for this hall on this chain) comes with it.
    struct SessionGrant {
        address key; // the session key's address
        uint64 expiresAt; // unix seconds: after now, at most now + MAX_SESSION_DURATION (7 days)
        uint128 feeAllowance; // native coin set aside in the hall for the key's roll fees and refuels: at most
        // MAX_SESSION_ALLOWANCE
        uint128 keyGas; // the key's float: native coin forwarded to the key now, and the most refuelKey tops it
        // up to (may be 0)
    }

    /// @notice A player's latest session as the app shows it, kept after it expires (`active` false) so the app can
    /// say that it ended; all zero if the player never opened one or revoked it.
    struct SessionView {
        address key;
        uint64 expiresAt;
        uint128 feeAllowance; // what is left of the coin set aside for the key (roll fees and refuels)
        bool active; // the key may act now (not expired)
    }

    // ------------------------------------------------------------------ errors

    /// @notice The rule set is not one of 0 Yahtzee, 1 Yatzy, 2 Yazty, 3 Extended.
    error UnknownRuleSet(uint8 ruleSet);
    /// @notice The rule set's sheet has no box with this index.
    error BoxOutOfRange(uint8 ruleSet, uint8 box);
    /// @notice A die is not 1..6.
    error InvalidDie(uint8 position, uint8 value);

    /// @notice No game has this id.
    error UnknownGame(uint256 gameId);
    /// @notice The game is not an open lobby (it is running, finished or cancelled).
    error GameNotOpen(uint256 gameId, GameStatus status);
    /// @notice The game is not being played.
    error GameNotRunning(uint256 gameId, GameStatus status);
    /// @notice The lobby's join window has closed.
    error JoinWindowClosed(uint256 gameId, uint64 closedAt);
    /// @notice Only the creator may cancel before the join window closes.
    error JoinWindowStillOpen(uint256 gameId, uint64 closesAt);
    /// @notice This lobby is private and the caller is not on its list.
    error NotInvited(uint256 gameId, address account);
    /// @notice The caller already has a seat in this game.
    error AlreadyJoined(uint256 gameId, address account);
    /// @notice The caller has no seat in this game.
    error NotInGame(uint256 gameId, address account);
    /// @notice The token is not on the allow list.
    error TokenNotAllowed(address token);
    /// @notice The bet is outside the token's configured limits.
    error BetOutOfRange(uint256 bet, uint256 minBet, uint256 maxBet);
    /// @notice Games have 2 to 4 seats.
    error SeatsOutOfRange(uint8 seats);
    /// @notice The join window is outside the configured bounds.
    error JoinWindowOutOfRange(uint32 joinWindow, uint32 min, uint32 max);
    /// @notice The move timeout is outside the configured bounds.
    error MoveTimeoutOutOfRange(uint32 moveTimeout, uint32 min, uint32 max);
    /// @notice A private lobby lists too many invitees.
    error TooManyInvitees(uint256 count, uint256 max);
    /// @notice A private lobby lists fewer invitees than it has seats to fill.
    error NotEnoughInvitees(uint256 count, uint256 openSeats);
    /// @notice An invitee is the zero address, the creator, or listed twice.
    error InvalidInvitee(address invitee);
    /// @notice The native coin sent does not match what the call costs.
    error WrongPayment(uint256 sent, uint256 expected);
    /// @notice The token moved a different amount than the bet (fee-on-transfer tokens are refused).
    error TransferAmountMismatch(address token, uint256 expected, uint256 received);
    /// @notice It is another player's turn.
    error NotYourTurn(uint256 gameId, address expected);
    /// @notice A roll is waiting for its random number: its accepted request's (`retryAt` 0: it is never asked again,
    /// its number is delivered by the provider's keeper or by anyone from the provider's revelation), or a refused
    /// roll asked again in the block of its refusal (`retryAt`: from then on anyone may). Never past the call-off.
    error RollPending(uint256 gameId, uint64 sequenceNumber, uint64 retryAt);
    /// @notice The player has used all three rolls of this turn.
    error NoRollsLeft(uint256 gameId);
    /// @notice The first roll of a turn rolls all five dice.
    error FirstRollKeepsNone(uint8 keepMask);
    /// @notice A re-roll keeps a subset of the five dice and re-rolls at least one.
    error InvalidKeepMask(uint8 keepMask);
    /// @notice The roll fee sent is below the Entropy fee.
    error InsufficientRollFee(uint256 sent, uint256 fee);
    /// @notice A box can only be filled after at least one roll.
    error NotRolledYet(uint256 gameId);
    /// @notice This box is already filled.
    error BoxFilled(uint8 box);
    /// @notice The Joker rule forbids this box for these dice.
    error JokerForbidsBox(uint8 box);
    /// @notice The move deadline has not passed yet.
    error DeadlineNotPassed(uint256 gameId, uint64 deadline);
    /// @notice Only the Entropy contract may deliver random numbers.
    error NotEntropy(address caller);
    /// @notice A roll asked again must keep the dice its first attempt kept.
    error KeepMaskLocked(uint256 gameId, uint8 keepMask);
    /// @notice The outstanding roll is in its call-off window's last LAST_RETRY_BEFORE_CALL_OFF seconds, or past it:
    /// no request is accepted any more (so the last one accepted has time to be delivered); it can only be
    /// delivered or, from `callOffAt`, called off.
    error CallOffWindowOver(uint256 gameId, uint64 callOffAt);
    /// @notice The roll's Entropy fee is above the cap its game fixed when it opened (the reason of a refusal).
    error RollFeeAboveCap(uint256 fee, uint256 cap);
    /// @notice The Entropy request failed without a reason (out of gas): the transaction needs more gas.
    error EntropyCallFailed();
    /// @notice The hall follows Entropy's default provider only.
    error NotDefaultProvider(address provider, address defaultProvider);
    /// @notice The caller has no credits in this token.
    error NothingToWithdraw(address token, address account);
    /// @notice Sending the native coin failed.
    error NativeTransferFailed(address to, uint256 amount);
    /// @notice The treasury holds less than requested.
    error TreasuryInsufficient(address token, uint256 requested, uint256 available);
    /// @notice The house fee is above its hard cap.
    error FeeAboveCap(uint16 bps, uint16 cap);
    /// @notice A bound pair is empty or zero.
    error InvalidBounds(uint32 min, uint32 max);
    /// @notice A token's bet limits are empty.
    error InvalidBetLimits(uint128 minBet, uint128 maxBet);
    /// @notice A duration or gas limit is below its floor or above its cap.
    error InvalidSetting(uint256 value);
    /// @notice An address argument is zero.
    error ZeroAddress();
    /// @notice Paying from credit with too little of it: the shortfall is `needed - available`.
    error InsufficientCredit(address token, uint256 needed, uint256 available);
    /// @notice The key's session is over, or a grant's expiry is not in the future.
    error SessionExpired(address key, uint64 expiresAt);
    /// @notice A grant's expiry is past the longest session (7 days from now).
    error SessionTooLong(uint64 expiresAt, uint64 latest);
    /// @notice The roll fee is more than what is left of the roll fees set aside for the session.
    error SessionAllowanceExceeded(address player, uint256 fee, uint256 allowanceLeft);
    /// @notice A grant sets aside more roll fees than a session holds (MAX_SESSION_ALLOWANCE).
    error SessionAllowanceTooLarge(uint256 feeAllowance, uint256 max);
    /// @notice The key's signature is not a SessionConsent to this player and grant (`signer` is who signed it, 0
    /// if the signature is malformed): no address can be named as a key without its own consent.
    error InvalidSessionConsent(address key, address signer);
    /// @notice The game is still open or running: its players' credit cannot be paid out for them yet.
    error GameNotOver(uint256 gameId, GameStatus status);
    /// @notice This code runs only by delegatecall from the hall that deployed it.
    error NotTheHall(address self);
    /// @notice Only the player's active session key may withdraw for them.
    error NotSessionKey(address caller);
    /// @notice A session key asked to refuel while it holds its whole float already.
    error KeyFull(address key, uint256 balance, uint256 float);
    /// @notice payOut was sent with too little gas to give the receiver its PAYOUT_GAS and fall back to credit.
    error PayoutGasTooLow(uint256 gasLeft, uint256 needed);
    /// @notice An amount too large for a credit (2^128 units or more).
    error AmountTooLarge(uint256 amount);
    /// @notice A session key must not be zero, the player itself, or a key another player holds (active or
    /// expired, until that player's session is revoked, replaced or paid out).
    error InvalidSessionKey(address key);
    /// @notice A match is 1 to 10 games.
    error GamesOutOfRange(uint8 games);

    // ------------------------------------------------------------------ events

    /// @notice A lobby was opened; the creator holds seat 0 and paid the bet.
    event GameCreated(
        uint256 indexed gameId,
        address indexed creator,
        address token,
        uint256 bet,
        uint8 seats,
        uint8 ruleSet,
        bool isPrivate
    );
    /// @notice The lobby just created (its GameCreated comes first) is a match of `games` games (2..10; a
    /// single game has no MatchCreated).
    event MatchCreated(uint256 indexed gameId, uint8 games);
    /// @notice Game `game` (1-based) of a match of two or more games ended: `players` in that game's turn order
    /// (forfeited ones included), their `totals` in that game, and its `winners` (the best total among the players
    /// still in; a tie is a win for each). The match's own end follows as GameFinished, after its last game's.
    event MatchGameFinished(
        uint256 indexed gameId,
        uint8 game,
        address[] players,
        uint256[] totals,
        address[] winners
    );
    /// @notice A private lobby lists this account (one event each, so an invitee can filter by topic).
    event PlayerInvited(uint256 indexed gameId, address indexed invitee);
    /// @notice A player took a seat and paid the bet.
    event PlayerJoined(uint256 indexed gameId, address indexed player);
    /// @notice A player left an open lobby and was refunded.
    event PlayerLeft(uint256 indexed gameId, address indexed player);
    /// @notice The first roll's random number drew the turn order; play begins in it.
    event GameStarted(uint256 indexed gameId, address[] order);
    /// @notice A roll was sent to Pyth Entropy.
    event RollRequested(
        uint256 indexed gameId,
        address indexed player,
        uint64 sequenceNumber,
        uint8 keepMask
    );
    /// @notice Entropy refused a roll's request; nothing was spent (a paid roll's value went to the roller's
    /// credit, a key's fee back to its session's slot) and the roll may be asked again.
    event RollRefused(uint256 indexed gameId, address indexed player, uint8 keepMask, bytes reason);
    /// @notice Entropy answered; these are the dice after the roll.
    event DiceRolled(
        uint256 indexed gameId,
        address indexed player,
        uint8 rollNumber,
        uint8[5] dice,
        uint64 sequenceNumber,
        bytes32 randomNumber
    );
    /// @notice A box was filled; `bonus` is the Yahtzee bonus this box earned (0 or 100).
    event Scored(
        uint256 indexed gameId,
        address indexed player,
        uint8 category,
        uint256 points,
        uint256 bonus
    );
    /// @notice A player missed their deadline and forfeited their seat.
    event PlayerForfeited(uint256 indexed gameId, address indexed player);
    /// @notice The game ended; winners were credited `payoutEach` (the first winner also the remainder).
    /// For a match: it ended (after its last game, or when one player was left); `players` in its last game's
    /// turn order, `totals` their points over all its games, `winners` those with the most games won, then the
    /// most points.
    event GameFinished(
        uint256 indexed gameId,
        address token,
        uint8 ruleSet,
        address[] players,
        uint256[] totals,
        address[] winners,
        uint256 payoutEach,
        uint256 houseFee
    );
    /// @notice The game was called off: a lobby cancelled (every seat refunded), or a running game whose dice
    /// Entropy failed to deliver or whose order nobody drew (the pot split among the players still in, no fee).
    event GameCancelled(uint256 indexed gameId);
    /// @notice An account pulled its credits.
    event Withdrawn(address indexed token, address indexed account, uint256 amount);
    /// @notice An account was credited (payout, refund or roll-fee surplus).
    event Credited(address indexed token, address indexed account, uint256 amount);
    /// @notice A payout someone else sent (payOut) could not be delivered within PAYOUT_GAS: `amount` stays in
    /// `account`'s credit, for its own withdraw.
    event PayoutFailed(address indexed token, address indexed account, uint256 amount);
    /// @notice A session key took `amount` from its session's slot for its gas (refuelKey).
    event KeyRefuelled(address indexed player, address indexed key, uint256 amount);

    /// @notice An account put money into its credit.
    event Deposited(address indexed token, address indexed account, uint256 amount);
    /// @notice A player named a session key (it replaces any earlier one); `keyGas` was sent to the key.
    event SessionOpened(
        address indexed player,
        address indexed key,
        uint64 expiresAt,
        uint128 feeAllowance,
        uint128 keyGas
    );
    /// @notice A player ended a session (or replaced it with another key, or it was closed after it expired); what
    /// was left of its roll fees went back to the player's native credit.
    event SessionRevoked(address indexed player, address indexed key);

    /// @notice The owner changed a token's allowance or limits.
    event TokenConfigured(address indexed token, bool allowed, uint128 minBet, uint128 maxBet);
    /// @notice The owner changed the house fee for lobbies opened from now on.
    event HouseFeeSet(uint16 bps);
    /// @notice The owner changed the join-window bounds.
    event JoinWindowBoundsSet(uint32 min, uint32 max);
    /// @notice The owner changed the move-timeout bounds.
    event MoveTimeoutBoundsSet(uint32 min, uint32 max);
    /// @notice The owner changed the entropy timeout of lobbies opened from now on (kept for the record only).
    event EntropyTimeoutSet(uint32 seconds_);
    /// @notice The owner changed how long a roll may stay out before its game may be called off.
    event CallOffWindowSet(uint32 seconds_);
    /// @notice The owner changed the gas limit asked for the Entropy callback.
    event CallbackGasLimitSet(uint32 gasLimit);
    /// @notice The owner changed the Entropy provider for lobbies opened from now on.
    event EntropyProviderSet(address provider);
    /// @notice The owner withdrew house fees.
    event TreasuryWithdrawn(address indexed token, address indexed to, uint256 amount);

    // ------------------------------------------------------------------ players

    /// @notice Opens a lobby; the caller takes seat 0 and pays the bet.
    function createGame(GameConfig calldata cfg) external payable returns (uint256 gameId);
    /// @notice createGame for a match of `games` (1..10) games played in a row at this table for one stake:
    /// the bet is paid once here (and once by each joiner, with joinGame), the pot settled once after the last game.
    function createMatch(GameConfig calldata cfg, uint8 games) external payable returns (uint256 gameId);
    /// @notice Takes a seat and pays the bet; the last seat starts the game (its first roll draws the order).
    function joinGame(uint256 gameId) external payable;
    /// @notice Leaves an open lobby with a refund; the creator leaving cancels it.
    function leaveGame(uint256 gameId) external;
    /// @notice Cancels an open lobby (creator any time, anyone after the join window) and refunds all.
    function cancelGame(uint256 gameId) external;
    /// @notice Rolls the dice not kept (bit i set keeps die i); pays `gameRollFee(gameId)`, surplus is credited.
    /// A refused roll may be asked again by anyone (the dice stay the mover's, with the same keep mask).
    /// A player's active session key may roll for them (msg.value 0): the fee comes from the roll fees set aside for
    /// the session. A call that sends value is always the caller's own: an address named as someone's key that asks
    /// again for a refused roll, paying, asks as itself.
    function roll(uint256 gameId, uint8 keepMask) external payable;
    /// @notice Fills one open box with the current dice and passes the turn; the mover's active session key may.
    function score(uint256 gameId, uint8 category) external;
    /// @notice Forfeits the current player once their deadline has passed, or calls the game off when its roll
    /// has been out for the whole call-off window or nobody drew the order; anyone may call.
    function claimTimeout(uint256 gameId) external;
    /// @notice Sends the caller all their credits in one token.
    function withdraw(address token) external;

    // ------------------------------------------------------------------ credit and sessions

    /// @notice Puts `amount` into the caller's credit: the native coin (msg.value == amount) or an allowed
    /// ERC-20 (exactly `amount` moved by transferFrom).
    function deposit(address token, uint256 amount) external payable;
    /// @notice createGame, the bet taken from the caller's credit in `cfg.token`.
    function createGameFromCredit(GameConfig calldata cfg) external returns (uint256 gameId);
    /// @notice createMatch, the bet taken from the caller's credit in `cfg.token`.
    function createMatchFromCredit(GameConfig calldata cfg, uint8 games) external returns (uint256 gameId);
    /// @notice joinGame, the bet taken from the caller's credit.
    function joinGameFromCredit(uint256 gameId) external;
    /// @notice Names a session key (replacing any earlier one, whose unspent fees go back to credit), with the key's
    /// EIP-712 signature `consent` of SessionConsent(player = caller, the grant). Of msg.value, `grant.keyGas` is
    /// sent to the key and `grant.feeAllowance` set aside for its roll fees (the part msg.value does not cover comes
    /// out of the caller's native credit); the rest goes into the caller's native credit.
    function openSession(SessionGrant calldata grant, bytes calldata consent) external payable;
    /// @notice createGame and openSession in one transaction. A native bet comes out of msg.value first; an
    /// ERC-20 bet is taken by transferFrom. The rest of msg.value opens the session as openSession.
    function createGameWithSession(
        GameConfig calldata cfg,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable returns (uint256 gameId);
    /// @notice createMatch and openSession in one transaction, paid as createGameWithSession.
    function createMatchWithSession(
        GameConfig calldata cfg,
        uint8 games,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable returns (uint256 gameId);
    /// @notice joinGame and openSession in one transaction, paid as createGameWithSession.
    function joinGameWithSession(
        uint256 gameId,
        SessionGrant calldata grant,
        bytes calldata consent
    ) external payable;
    /// @notice Ends the caller's session, active or expired: its key can do nothing more and its unspent roll fees
    /// go back to the caller's native credit.
    function revokeSession() external;
    /// @notice Sends all of `player`'s credits in `token` to `player`; only `player`'s active session key may.
    /// For the native coin the session's unspent roll fees come too (its key can then roll only by the wallet).
    function withdrawFor(address player, address token) external;
    /// @notice Sends `player` what game `gameId` left them in `token` (their winnings or refund, at most their
    /// credit) and nowhere else, once that game, in which `player` held a seat, is over; anyone may (the hall's
    /// keeper does). In the native coin, what the player's session slot holds comes too once that session is
    /// over (its game is this one, or it expired). Never a deposit or another game's credit. A native payout
    /// forwards at most PAYOUT_GAS to the receiver: if it fails, the amount stays in the player's credit
    /// (PayoutFailed) and the call succeeds. Either way the game owes the player nothing more.
    function payOut(uint256 gameId, address player, address token) external;
    /// @notice What payOut(gameId, player, token) would send now; 0 if nothing.
    function payOutAmount(uint256 gameId, address player, address token) external view returns (uint256);
    /// @notice Sends the caller, an active session key, coin from its session's slot up to the float its
    /// player granted it (SessionGrant.keyGas): the key holds a few moves' gas and refuels itself; the rest stays
    /// in the hall, and comes back to the player when the session is over.
    function refuelKey() external;
    /// @notice A player's latest session, kept (with `active` false) once it has expired; all zero if none.
    function session(address player) external view returns (SessionView memory);
    /// @notice The player an active session key acts for; 0 if the key is not active.
    function sessionPlayer(address key) external view returns (address player);
    /// @notice The EIP-712 domain a key's SessionConsent is signed in (ERC-5267): "DiceHall", "1", this chain,
    /// this hall.
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
        );

    // ------------------------------------------------------------------ views

    /// @notice What one roll costs now in a lobby opened now (the Entropy fee).
    function rollFee() external view returns (uint256);
    /// @notice What one roll of this game costs now (its provider's fee at its callback gas limit).
    function gameRollFee(uint256 gameId) external view returns (uint256);
    /// @notice Credits an account can withdraw in a token.
    function credits(address token, address account) external view returns (uint256);
    /// @notice The raw score of a box for five dice, without Joker context.
    function scoreDice(uint8 ruleSet, uint8 category, uint8[5] calldata dice) external pure returns (uint256);
    /// @notice One game.
    function getGame(uint256 gameId) external view returns (GameView memory);
    /// @notice One player's sheet in one game.
    function getPlayer(uint256 gameId, address player) external view returns (PlayerView memory);
    /// @notice House fees collected in a token and not yet withdrawn.
    function treasury(address token) external view returns (uint256);
    /// @notice The id the next lobby will get (ids start at 1).
    function nextGameId() external view returns (uint256);
    /// @notice What the owner allows for a token.
    function tokenConfig(address token) external view returns (TokenConfig memory);
    /// @notice The house fee in basis points for lobbies opened now.
    function houseFeeBps() external view returns (uint16);
    /// @notice The join-window bounds for lobbies opened now.
    function joinWindowBounds() external view returns (uint32 min, uint32 max);
    /// @notice The move-timeout bounds for lobbies opened now.
    function moveTimeoutBounds() external view returns (uint32 min, uint32 max);
    /// @notice The entropy timeout lobbies opened now keep; it gates nothing: an accepted request is never replaced.
    function entropyTimeout() external view returns (uint32);
    /// @notice The gas limit asked for each Entropy callback, for lobbies opened now.
    function callbackGasLimit() external view returns (uint32);
    /// @notice The Pyth Entropy contract.
    function entropy() external view returns (address);
    /// @notice The Entropy provider the dice of lobbies opened now are asked from.
    function entropyProvider() external view returns (address);
    /// @notice How long a roll may stay out before its game may be called off, for lobbies opened now.
    function callOffWindow() external view returns (uint32);

    // ------------------------------------------------------------------ owner

    /// @notice Allows or forbids a token and sets its bet limits.
    function setTokenConfig(address token, bool allowed, uint128 minBet, uint128 maxBet) external;
    /// @notice Sets the house fee (at most 1000 bps) for lobbies opened from now on.
    function setHouseFee(uint16 bps) external;
    /// @notice Sets the bounds a lobby's join window must lie within.
    function setJoinWindowBounds(uint32 min, uint32 max) external;
    /// @notice Sets the bounds a lobby's move timeout must lie within.
    function setMoveTimeoutBounds(uint32 min, uint32 max) external;
    /// @notice Sets the entropy timeout (at least 30 minutes) lobbies opened from now on keep for the record; it gates
    /// nothing: an accepted request is never replaced and a refused roll may be asked again from the next second.
    function setEntropyTimeout(uint32 seconds_) external;
    /// @notice Sets the gas limit asked for each Entropy callback (60 000 to 2 500 000), for lobbies opened from now on.
    function setCallbackGasLimit(uint32 gasLimit) external;
    /// @notice Follows Entropy's default provider (no other is accepted) for lobbies opened from now on.
    function setEntropyProvider(address provider) external;
    /// @notice Sets the call-off window (6 hours to 7 days) for lobbies opened from now on.
    function setCallOffWindow(uint32 seconds_) external;
    /// @notice Stops new lobbies and joins; play, refunds and withdrawals go on.
    function pause() external;
    /// @notice Lets new lobbies and joins in again.
    function unpause() external;
    /// @notice Sends house fees to `to`; never more than the treasury holds.
    function withdrawTreasury(address token, address to, uint256 amount) external;
}
