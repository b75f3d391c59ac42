// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MockEntropy} from "@pythnetwork/entropy-sdk-solidity/MockEntropy.sol";

import {IDiceHall} from "../interfaces/IDiceHall.sol";
import {Scoring} from "../libraries/Scoring.sol";
import {TestToken} from "./TestToken.sol";

/// @notice A player of the filler's games: a contract that forwards its owner's moves to DiceHall, so that one
/// transaction can seat several players. Withdrawn winnings go back to the owner, which pays the next bets.
contract FillerSeat {
    using SafeERC20 for IERC20;

    /// @notice Only the filler that made this seat moves it.
    error NotOwner(address caller);
    /// @notice Handing withdrawn native coin back to the owner failed.
    error ForwardFailed(address to, uint256 amount);

    IDiceHall private immutable HALL;
    address private immutable OWNER;

    /// @param token The ERC-20 this seat may bet (approved once, for good); address(0) for none.
    constructor(IDiceHall hall, IERC20 token) {
        HALL = hall;
        OWNER = msg.sender;
        if (address(token) != address(0)) token.forceApprove(address(hall), type(uint256).max);
    }

    modifier onlyOwner() {
        if (msg.sender != OWNER) revert NotOwner(msg.sender);
        _;
    }

    receive() external payable {}

    function createGame(IDiceHall.GameConfig calldata cfg) external payable onlyOwner returns (uint256) {
        return HALL.createGame{value: msg.value}(cfg);
    }

    function joinGame(uint256 gameId) external payable onlyOwner {
        HALL.joinGame{value: msg.value}(gameId);
    }

    function roll(uint256 gameId, uint8 keepMask) external payable onlyOwner {
        HALL.roll{value: msg.value}(gameId, keepMask);
    }

    function score(uint256 gameId, uint8 box) external onlyOwner {
        HALL.score(gameId, box);
    }

    /// @notice Withdraws this seat's credits in `token` and hands them to the owner.
    function cashOut(address token) external onlyOwner {
        HALL.withdraw(token);
        if (token == address(0)) {
            uint256 amount = address(this).balance;
            (bool ok, ) = OWNER.call{value: amount}("");
            if (!ok) revert ForwardFailed(OWNER, amount);
        } else {
            IERC20(token).safeTransfer(OWNER, IERC20(token).balanceOf(address(this)));
        }
    }
}

/// @notice Bench and test helper for the local chain: plays whole DiceHall games in one transaction, through
/// the hall's public functions only, with its seats as the players and MockEntropy's `mockReveal` as the dice.
/// A seed decides everything a game varies in: rule set, seats, coin, bet, who rolls first, re-rolls and
/// keep masks, the dice, the boxes chosen, who cashes out.
contract HallFiller {
    /// @notice Only the account that deployed the filler plays with it.
    error NotOwner(address caller);
    /// @notice A game needs up to four distinct seats.
    error TooFewSeats(uint256 seats, uint256 needed);
    /// @notice Every open box was refused for these dice (cannot happen under the rules as written).
    error NoBoxAccepted(uint256 gameId, address seat);

    uint32 private constant JOIN_WINDOW = 1 hours;
    uint32 private constant MOVE_TIMEOUT = 10 minutes;
    uint256 private constant MAX_SEATS = 4;
    uint8 private constant KEEP_ALL = 31;
    uint128 private constant MAX_NATIVE_BET = 5e15;
    /// @dev Rolls a game takes at most: four seats, sixteen rounds, three rolls a turn.
    uint256 private constant MAX_ROLLS_PER_GAME = 4 * 16 * 3;

    /// @dev One game being played: its fixed facts and the seed's stream of pseudo-random numbers.
    struct Table {
        uint256 gameId;
        address token;
        uint8 seats;
        uint8 boxes;
        uint256 rollFee;
        uint256 random;
    }

    IDiceHall public immutable HALL;
    MockEntropy public immutable ENTROPY;
    /// @notice Test USD for some of the games; address(0) plays the native coin only.
    TestToken public immutable TOKEN;
    address private immutable OWNER;

    FillerSeat[] public seats;
    /// @dev The provider and the sequence number MockEntropy gives the next request.
    address private _provider;
    uint64 private _nextSequence;

    constructor(IDiceHall hall, MockEntropy entropy, TestToken token) payable {
        HALL = hall;
        ENTROPY = entropy;
        TOKEN = token;
        OWNER = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != OWNER) revert NotOwner(msg.sender);
        _;
    }

    /// @notice Bets and roll fees are paid from this balance; seats hand their winnings back here.
    receive() external payable {}

    /// @notice Deploys `count` more seats: more seats spread the games over more players.
    function addSeats(uint256 count) external onlyOwner {
        for (uint256 i; i < count; ++i) seats.push(new FillerSeat(HALL, IERC20(address(TOKEN))));
    }

    function seatCount() external view returns (uint256) {
        return seats.length;
    }

    /// @notice The most native coin one game can take from this filler's balance (bets and roll fees).
    function maxCostPerGame() external view returns (uint256) {
        return MAX_SEATS * MAX_NATIVE_BET + MAX_ROLLS_PER_GAME * HALL.rollFee();
    }

    /// @notice Plays `count` whole games, the i-th from seed `keccak256(seed, i)`.
    /// @return firstGameId The id of the first game played; the others follow it.
    function playGames(uint256 seed, uint256 count) external payable onlyOwner returns (uint256 firstGameId) {
        if (seats.length < MAX_SEATS) revert TooFewSeats(seats.length, MAX_SEATS);
        address provider = HALL.entropyProvider();
        _provider = provider;
        _nextSequence = ENTROPY.getProviderInfoV2(provider).sequenceNumber;
        firstGameId = HALL.nextGameId();
        for (uint256 i; i < count; ++i) _play(uint256(keccak256(abi.encode(seed, i))));
    }

    function _play(uint256 seed) private {
        Table memory t;
        t.random = seed;
        uint8 ruleSet = uint8(_next(t) % 4);
        t.seats = uint8(2 + (_next(t) % 3));
        t.boxes = Scoring.boxCount(ruleSet);
        bool tusd = address(TOKEN) != address(0) && _next(t) % 5 == 0;
        // Bets of a few sizes, so that "by token" and amounts vary on the leaderboard.
        uint128 bet =
            tusd
                ? uint128((1 + (_next(t) % 3) * 4) * 1e6)
                : uint128(((1 + (_next(t) % 5)) * MAX_NATIVE_BET) / 5);
        if (tusd) t.token = address(TOKEN);

        FillerSeat[] memory players = _pickSeats(t);
        t.gameId = _seatPlayers(t, players, ruleSet, bet);
        t.rollFee = HALL.gameRollFee(t.gameId);

        // Any seated player may make the first roll; its number draws the order and its dice are the first player's.
        _roll(t, players[_next(t) % t.seats], 0);
        address[] memory order = HALL.getGame(t.gameId).players;
        uint256[] memory filled = new uint256[](t.seats);
        for (uint256 round; round < t.boxes; ++round) {
            for (uint256 p; p < t.seats; ++p) {
                FillerSeat seat = FillerSeat(payable(order[p]));
                if (round != 0 || p != 0) _roll(t, seat, 0);
                // Half the turns stand on the first roll, some re-roll once, a few twice.
                uint256 style = _next(t) % 8;
                uint256 rerolls = style / 4 + style / 7; // 0-3: none, 4-6: one, 7: two
                for (uint256 k; k < rerolls; ++k) _roll(t, seat, uint8(_next(t) % KEEP_ALL));
                filled[p] = _scoreSomewhere(t, seat, filled[p]);
            }
        }
        _cashOut(t, players);
    }

    /// @dev `t.seats` distinct seats from the pool, the first one opening the lobby.
    function _pickSeats(Table memory t) private view returns (FillerSeat[] memory players) {
        players = new FillerSeat[](t.seats);
        uint256 pool = seats.length;
        for (uint256 i; i < t.seats; ++i) {
            uint256 pick = _next(t) % pool;
            // Linear probing past the seats already taken; at most three are.
            while (_taken(players, i, seats[pick])) pick = (pick + 1) % pool;
            players[i] = seats[pick];
        }
    }

    function _taken(FillerSeat[] memory players, uint256 count, FillerSeat seat) private pure returns (bool) {
        for (uint256 j; j < count; ++j) if (players[j] == seat) return true;
        return false;
    }

    function _seatPlayers(
        Table memory t,
        FillerSeat[] memory players,
        uint8 ruleSet,
        uint128 bet
    ) private returns (uint256 gameId) {
        uint256 value = t.token == address(0) ? bet : 0;
        if (t.token != address(0)) TOKEN.mint(address(players[0]), bet);
        gameId = players[0].createGame{value: value}(
            IDiceHall.GameConfig({
                token: t.token,
                bet: bet,
                seats: t.seats,
                ruleSet: ruleSet,
                joinWindow: JOIN_WINDOW,
                moveTimeout: MOVE_TIMEOUT,
                invitees: new address[](0)
            })
        );
        for (uint256 i = 1; i < t.seats; ++i) {
            if (t.token != address(0)) TOKEN.mint(address(players[i]), bet);
            players[i].joinGame{value: value}(gameId);
        }
    }

    /// @dev A roll and its answer: MockEntropy numbers requests in order, and nothing else requests in between.
    function _roll(Table memory t, FillerSeat seat, uint8 keepMask) private {
        seat.roll{value: t.rollFee}(t.gameId, keepMask);
        ENTROPY.mockReveal(_provider, _nextSequence++, bytes32(_next(t)));
    }

    /// @dev Tries the open boxes from a seed-chosen one on until the hall accepts one (the Joker rule may
    /// forbid some); returns the seat's filled boxes with it.
    function _scoreSomewhere(Table memory t, FillerSeat seat, uint256 filled) private returns (uint256) {
        uint256 start = _next(t) % t.boxes;
        for (uint256 k; k < t.boxes; ++k) {
            uint8 box = uint8((start + k) % t.boxes);
            if ((filled >> box) & 1 == 1) continue;
            try seat.score(t.gameId, box) {
                return filled | (1 << box);
            } catch {}
        }
        revert NoBoxAccepted(t.gameId, address(seat));
    }

    /// @dev Most winners withdraw at once (their winnings pay later bets); the others leave them as credits.
    function _cashOut(Table memory t, FillerSeat[] memory players) private {
        for (uint256 i; i < players.length; ++i) {
            if (HALL.credits(t.token, address(players[i])) != 0 && _next(t) % 4 != 0) {
                players[i].cashOut(t.token);
            }
        }
    }

    function _next(Table memory t) private pure returns (uint256) {
        t.random = uint256(keccak256(abi.encode(t.random)));
        return t.random;
    }
}
