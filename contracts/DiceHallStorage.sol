// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IEntropyV2} from "@pythnetwork/entropy-sdk-solidity/IEntropyV2.sol";

import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {PlayerState} from "./types/PlayerState.sol";
import {PendingRolls} from "./libraries/PendingRolls.sol";

/// @title DiceHall's storage and its money primitives: the one layout DiceHall and DiceHallDesk (run by
/// delegatecall) share, and the code both use to credit, owe, settle a pot and send.
/// @notice Everything here is DiceHall's; DiceHallDesk only lends it code (docs/ARCHITECTURE.md, "One contract,
/// two pieces of code"); test/storageLayout.test.ts holds the two layouts equal.
abstract contract DiceHallStorage is Ownable2Step, Pausable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    uint16 public constant MAX_HOUSE_FEE_BPS = 1000;
    uint256 public constant MAX_INVITEES = 16;
    /// @dev The largest bet a token may allow (2^120 units): a credit (128 bits) holds 2^8 of the largest pots.
    uint128 internal constant MAX_BET = 1 << 120;
    uint32 public constant MAX_CALLBACK_GAS_LIMIT = 2_500_000;
    /// @notice The heaviest callback (a 4-seat order draw filed in the overflow map) needs well under this.
    uint32 public constant MIN_CALLBACK_GAS_LIMIT = 60_000;
    /// @notice The floor of the entropy timeout setting (seconds). A game keeps its value for the record only: since
    /// an accepted request is never replaced, nothing waits for it; a refused roll waits RETRY_FLOOR.
    uint32 public constant MIN_ENTROPY_TIMEOUT = 30 minutes;
    /// @notice How long after a refusal the roll may be asked again (seconds): from the next block on chains whose
    /// blocks are a second or more apart. Asking again in the refusal's own block would meet the same backlog.
    uint32 internal constant RETRY_FLOOR = 1;
    /// @notice The shortest call-off window: a roll must have been outstanding this long before its game can be
    /// called off, so whoever wants a call-off must keep every other player's retry refused all that time.
    uint32 public constant MIN_CALL_OFF_WINDOW = 6 hours;
    /// @notice The longest call-off window, so that every game still ends in bounded time.
    uint32 public constant MAX_CALL_OFF_WINDOW = 7 days;
    /// @notice A game's roll fee cap is this multiple of its provider's fee when the lobby opened; a dearer quote
    /// is a refusal (the clock stays stopped), so a provider cannot price a player out of their turn.
    uint256 public constant ROLL_FEE_CAP_MULTIPLE = 10;
    /// @dev Salt of the turn order draw, so that it never shares a hash with a die of the same number.
    bytes32 internal constant ORDER_DRAW = keccak256("DiceHall.turnOrder");
    uint256 internal constant BPS = 10_000;
    /// @dev The transient slot of the length of the match a createMatch call is opening, for the lobby code it
    /// shares with createGame (0 there: a single game). A transient word rather than an argument: passed as an
    /// argument, the constant 1 of the createGame calls made the optimizer copy the lobby code into each of them
    /// (2 KB over EIP-170).
    bytes32 internal constant MATCH_GAMES_SLOT = keccak256("DiceHall.matchGames");
    /// @dev keccak256 of Panic(0x11)'s revert data: an arithmetic overflow.
    bytes32 internal constant PANIC_OVERFLOW = keccak256(
        hex"4e487b710000000000000000000000000000000000000000000000000000000000000011"
    );
    uint8 internal constant MAX_ROLLS = 3;
    /// @notice The longest match, in games.
    uint8 public constant MAX_GAMES = 10;
    /// @notice The longest a session key may live.
    uint64 public constant MAX_SESSION_DURATION = 7 days;
    /// @notice The most roll fees a session sets aside (2^64 - 1 wei, about 18.4 of the native coin), so that they
    /// share one slot with the key's player and expiry: a key's roll reads and writes that slot only.
    uint64 public constant MAX_SESSION_ALLOWANCE = type(uint64).max;
    /// @dev The largest float a key may be granted (SessionGrant.keyGas), kept in whole gwei in 48 bits.
    uint256 internal constant MAX_KEY_FLOAT = uint256(type(uint48).max) * 1 gwei;
    /// @notice No request for a refused roll is accepted in its call-off window's last this many seconds, so the
    /// last request accepted always has at least this long to be delivered before the game may be called off:
    /// a delivery and a call-off never race.
    uint32 public constant LAST_RETRY_BEFORE_CALL_OFF = 1 hours;
    /// @notice The gas a payout someone else sends (payOut) forwards to the receiver's code: enough for a smart
    /// wallet's receive, bounded so that a receiver that burns gas costs the sender little. A receiver that needs
    /// more keeps the amount in its credit and takes it with its own withdraw.
    uint256 public constant PAYOUT_GAS = 50_000;
    /// @dev The gas payOut must have left before it sends: PAYOUT_GAS for the receiver as EIP-150 forwards it
    /// (63/64 of what is left), the call's own cost, and the fallback to credit if the receiver fails.
    uint256 internal constant PAYOUT_MIN_GAS = (PAYOUT_GAS * 64) / 63 + 40_000;

    /// @dev A game's header: three slots, then the seats in join order.
    struct Game {
        // slot 0
        address token;
        uint8 seats;
        uint8 ruleSet;
        IDiceHall.GameStatus status;
        uint8 joined;
        uint8 turn; // position in the turn order of the player to move
        uint8 round;
        uint16 feeBps;
        uint8 order; // turn order: TurnOrder packing, position -> join index; 0 until the first roll draws it
        uint8 forfeited; // bit j set = the player at join index j forfeited (for the rest of the match)
        uint8 games; // the match length, 1..MAX_GAMES (1 = a single game)
        uint8 game; // the game being played, 1..games
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

    /// @dev A player's latest session: its key (the grant itself is the key's), the game it was opened with (0:
    /// none; when that game is over the session is over, and payOut sends the player what its slot holds), and
    /// the most coin its key may hold, in gwei (the float the key consented to as keyGas; refuelKey tops it up
    /// to this from the slot).
    struct Session {
        address key;
        uint48 gameId;
        uint48 floatGwei;
    }

    /// @dev What a key may do and the coin set aside for it (its roll fees and the gas it refuels with), in one
    /// slot: the only slot a key's roll or score reads (and a roll writes) beyond a player's own. Kept after it
    /// expires, until its player revokes or replaces it or its session is paid out.
    struct KeyGrant {
        address player;
        uint32 expiresAt; // at most 7 days from when it was granted: fits until 2106
        uint64 feeLeft; // coin set aside for the key (roll fees and refuels), in wei, not yet spent
    }

    /// @dev Every key's grant, indexed by the key's address: element `uint160(key)` sits at the area's slot plus
    /// the key's address (a static array's element i is at its base + i), so a key's roll finds its grant without
    /// hashing, and layout tools see the area (ERC-7201).
    /// @custom:storage-location erc7201:dicehall.keyGrants
    struct KeyGrantArea {
        KeyGrant[1 << 160] grants;
    }

    /// @dev An account's credit in one token, in one slot: what it holds, and how much of that the ends of its
    /// games left it and payOut may still send it. owed <= amount always: the account's own spending (a bet from
    /// credit, a withdraw) takes from the owed part first, so a deposit is never what a stranger's payOut moves.
    /// Both fit: bets are at most MAX_BET, so a credit would need 2^8 of the largest pots to reach 2^128.
    struct Credit {
        uint128 amount;
        uint128 owed;
    }

    /// @dev A token's bet limits; a token is allowed exactly when maxBet is not 0.
    struct BetLimits {
        uint128 minBet;
        uint128 maxBet;
    }

    /// @dev Where the KeyGrantArea is: ERC-7201's formula for "dicehall.keyGrants", keccak256(abi.encode(
    /// uint256(keccak256("dicehall.keyGrants")) - 1)) & ~0xff (test/storageLayout.test.ts computes it again). No
    /// other variable lies within 2^160 slots of it: the declared ones are at slots below 1 024 (a few dozen; the pending rolls' ring is the longest), and a mapping's or an
    /// array's hash landing in that span is a 2^-96 chance, as for any two hashed locations. An immutable, not a
    /// constant: the optimizer would keep a 32-byte constant in the code's data and copy it out at every look-up.
    uint256 private immutable KEY_GRANTS =
        uint256(keccak256(abi.encode(uint256(keccak256("dicehall.keyGrants")) - 1))) & ~uint256(0xff);

    IEntropyV2 internal immutable ENTROPY;

    Settings internal _settings;
    TimeBounds internal _bounds;
    uint256 internal _nextGameId = 1;

    mapping(uint256 gameId => Game) internal _games;
    mapping(uint256 gameId => mapping(address player => PlayerState)) internal _sheets;
    mapping(uint256 gameId => address[]) internal _invitees;
    mapping(address token => BetLimits) internal _betLimits;
    mapping(address token => mapping(address account => Credit)) internal _credits;
    mapping(address token => uint256) internal _treasury;
    PendingRolls.Registry internal _pending;
    /// @dev Every provider ever set, by the id it got the first time (ids from 1).
    mapping(address provider => uint16) internal _providerIds;
    mapping(uint16 providerId => address) internal _providers;
    uint16 internal _providerCount;
    mapping(address player => Session) internal _sessions;

    /// @dev A key's grant; cleared when its player revokes or replaces it or its session is paid out, kept
    /// (expired) otherwise. The KeyGrantArea's element for the key: its slot plus the key's address.
    function _keyGrant(address key) internal view returns (KeyGrant storage k) {
        uint256 slot;
        // KEY_GRANTS + 2^160 < 2^256 (test/storageLayout.test.ts); the address converted in Solidity, so its bits
        // are clean. The same slot as KeyGrantArea.grants[uint160(key)], without the index's bounds check.
        unchecked {
            slot = KEY_GRANTS + uint160(key);
        }
        assembly ("memory-safe") {
            k.slot := slot
        }
    }

    constructor(address entropy_, address owner_) Ownable(owner_) {
        if (entropy_ == address(0)) revert IDiceHall.ZeroAddress();
        ENTROPY = IEntropyV2(entropy_);
    }

    /// @dev While a roll is out (`clock` is its latest attempt): when it may be asked of Entropy again. Only a
    /// refused roll may, from the next second on (a later block); 0 when it may not: an accepted request is out
    /// (one per roll, never replaced), or the retries' end (the call-off less LAST_RETRY_BEFORE_CALL_OFF) comes first.
    function _retryAt(Game storage g) internal view returns (uint64 at) {
        if (g.pendingSequence != 0) return 0;
        at = g.clock + RETRY_FLOOR;
        if (at >= _retriesEndAt(g)) at = 0;
    }

    /// @dev While a roll is out: from when no request for it is accepted any more.
    function _retriesEndAt(Game storage g) internal view returns (uint64) {
        return _callOffAt(g) - LAST_RETRY_BEFORE_CALL_OFF;
    }

    /// @dev While a roll is out: when the game may be called off, its call-off window after the roll's first attempt.
    function _callOffAt(Game storage g) internal view returns (uint64) {
        return uint64(g.rollSince) + g.callOffWindow;
    }

    function _credit(address token, address account, uint256 amount) internal {
        if (amount == 0) return;
        _credits[token][account].amount += _u128(amount);
        emit IDiceHall.Credited(token, account, amount);
    }

    /// @dev What a game's end leaves `player`: into their credit, and marked, in the credit and on their sheet, as
    /// what payOut may send them for this game. Every payout of a game's money (a win, a split pot, a refund, a
    /// call-off) is made here.
    function _owe(uint256 gameId, address token, address player, uint256 amount) internal {
        if (amount == 0) return;
        Credit storage c = _credits[token][player];
        uint128 a = _u128(amount);
        (c.amount, c.owed) = (c.amount + a, c.owed + a);
        emit IDiceHall.Credited(token, player, amount);
        _sheets[gameId][player] = _sheets[gameId][player].withOwed(amount);
    }

    /// @dev Takes all of an account's credit in a token off the books (its own withdraw, or its key's), and
    /// returns it.
    function _takeAllCredit(address token, address account) internal returns (uint256 amount) {
        Credit storage c = _credits[token][account];
        amount = c.amount;
        (c.amount, c.owed) = (0, 0);
    }

    function _u128(uint256 amount) internal pure returns (uint128) {
        if (amount > type(uint128).max) revert IDiceHall.AmountTooLarge(amount);
        return uint128(amount);
    }

    /// @dev The pot of a finished single game or match, in one place: the house fee (fixed when the lobby opened)
    /// to the treasury, the rest split equally among `winners`, the first of whom also takes what does not
    /// divide evenly. Returns each winner's share and the fee, for GameFinished.
    function _payPot(
        uint256 gameId,
        Game storage g,
        address[] memory winners
    ) internal returns (uint256 share, uint256 fee) {
        uint256 winnerCount = winners.length;
        uint256 pot = uint256(g.bet) * g.seats;
        fee = (pot * g.feeBps) / BPS;
        share = (pot - fee) / winnerCount;
        g.status = IDiceHall.GameStatus.Finished;
        address token = g.token;
        if (fee != 0) _treasury[token] += fee;
        _owe(gameId, token, winners[0], share + (pot - fee - share * winnerCount));
        for (uint256 i = 1; i < winnerCount; ++i) _owe(gameId, token, winners[i], share);
    }

    /// @dev Sends native coin to an address we do not control with at most PAYOUT_GAS for its code, and
    /// without copying what it returns: a receiver that burns gas or reverts costs the sender a bounded amount.
    function _sendBounded(address to, uint256 amount) internal returns (bool ok) {
        assembly ("memory-safe") {
            ok := call(PAYOUT_GAS, to, amount, 0, 0, 0, 0)
        }
    }

    function _send(address token, address to, uint256 amount) internal {
        if (token == address(0)) {
            (bool ok, ) = to.call{value: amount}("");
            if (!ok) revert IDiceHall.NativeTransferFailed(to, amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    /// @dev Puts `amount` into the caller's credit.
    function _deposit(address token, uint256 amount) internal {
        if (amount == 0) return;
        _credits[token][msg.sender].amount += _u128(amount);
        emit IDiceHall.Deposited(token, msg.sender, amount);
    }

    /// @dev Pays from an account's credit, or reverts with what is missing; the owed part goes first.
    function _spendCredit(address token, address account, uint256 amount) internal {
        Credit storage c = _credits[token][account];
        (uint256 available, uint256 owed) = (c.amount, c.owed);
        if (available < amount) revert IDiceHall.InsufficientCredit(token, amount, available);
        // amount <= available < 2^128, and owed <= available: what is left of owed is at most what is left.
        unchecked {
            (c.amount, c.owed) = (uint128(available - amount), uint128(owed > amount ? owed - amount : 0));
        }
    }
}
