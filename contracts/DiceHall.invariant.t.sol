// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MockEntropy} from "@pythnetwork/entropy-sdk-solidity/MockEntropy.sol";
import {DiceHall} from "./DiceHall.sol";
import {IDiceHall} from "./interfaces/IDiceHall.sol";
import {TestToken} from "./test/TestToken.sol";

/// @dev The few cheat codes this file needs (forge-std does not work under Hardhat 3).
interface IHevm {
    function warp(uint256 newTimestamp) external;
    function prank(address msgSender) external;
    function deal(address account, uint256 newBalance) external;
    function addr(uint256 privateKey) external pure returns (address);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
}

IHevm constant HEVM = IHevm(address(uint160(uint256(keccak256("hevm cheat code")))));

/// @notice Drives DiceHall the way a crowd would: five players open, join, leave and cancel lobbies in
/// the coin and in Test USD, paying by value, from credit or with a session in the same transaction,
/// put money into credit, open and revoke session keys, roll (Entropy answers with fuzzed numbers, late
/// answers included) and score by hand or by key, time each other out and withdraw (by key too), while
/// the clock jumps and the owner pauses and takes fees. A third of the lobbies are matches of 2 to 4 games, played
/// game after game at the same table for one stake each.
/// It keeps its own books (ghost escrow, money in, money out) from what each call did.
contract DiceHallHandler {
    uint256 internal constant ACTORS = 5;
    uint256 internal constant NATIVE_MIN = 1e15;
    uint256 internal constant NATIVE_MAX = 1e18;
    uint256 internal constant TOKEN_MIN = 1e6;
    uint256 internal constant TOKEN_MAX = 1e9;
    // An odd fee so that pots rarely divide evenly and remainders get paid.
    uint16 internal constant FEE_BPS = 333;
    address internal constant PROVIDER = address(0xE17);
    address internal constant SINK = address(0x5111C);
    /// @dev How a lobby move pays: by value, from credit, or with a session opened in the same transaction.
    uint256 internal constant PAID = 0;
    uint256 internal constant FROM_CREDIT = 1;
    uint256 internal constant WITH_SESSION = 2;

    struct GhostGame {
        uint8 tokenIndex;
        uint8 seats;
        uint8 seated;
        IDiceHall.GameStatus status;
        uint128 bet;
        uint64 closesAt;
        address creator;
        uint8 games; // the match length (1 = a single game)
        uint8 gameNumber; // the game the hall said was being played, last time the handler looked
    }

    DiceHall public immutable hall;
    MockEntropy public immutable entropy;
    TestToken public immutable token;

    address[] public actors;
    /// @notice keys[i] is the session key actors[i] names (it holds no credit, ever); it signs with keyPks[i].
    address[] public keys;
    uint256[] internal keyPks;
    uint256 public keyMoves;
    uint256[] public gameIds;
    mapping(uint256 gameId => GhostGame) public ghost;
    uint64[] public sequences;

    /// @notice Bets held for open and running games, by token index (0 native, 1 Test USD).
    uint256[2] public escrow;
    uint256[2] public moneyIn;
    uint256[2] public moneyOut;
    /// @notice The first promise DiceHall broke (a liveness call refused), empty if none.
    string public broken;
    /// @dev The revert data of the last lobby the hall refused (in a failure's message).
    bytes internal refusal;

    uint256 public finishedGames;
    uint256 public cancelledGames;
    /// @notice Games of matches that ended with another game of the same match to follow.
    uint256 public matchGamesEnded;

    constructor() {
        entropy = new MockEntropy(PROVIDER);
        hall = new DiceHall(address(entropy), address(this));
        token = new TestToken();
        hall.setTokenConfig(address(0), true, uint128(NATIVE_MIN), uint128(NATIVE_MAX));
        hall.setTokenConfig(address(token), true, uint128(TOKEN_MIN), uint128(TOKEN_MAX));
        hall.setHouseFee(FEE_BPS);
        HEVM.deal(address(this), 1e27);
        for (uint160 i = 1; i <= ACTORS; ++i) {
            address a = address(0xA000 + i);
            actors.push(a);
            keyPks.push(0xB000 + i);
            keys.push(HEVM.addr(0xB000 + i));
            HEVM.deal(a, 1e24);
            token.mint(a, 1e24);
            HEVM.prank(a);
            token.approve(address(hall), type(uint256).max);
        }
    }

    // ------------------------------------------------------------------ actions (fuzzed)

    function createGame(uint256 actorSeed, uint256 tokenSeed, uint256 betSeed, uint256 shapeSeed) external {
        _createGame(actorSeed, tokenSeed, betSeed, shapeSeed, (shapeSeed >> 56) % 3);
    }

    function _createGame(
        uint256 actorSeed,
        uint256 tokenSeed,
        uint256 betSeed,
        uint256 shapeSeed,
        uint256 mode
    ) internal {
        address creator = _actor(actorSeed);
        uint8 t = uint8(tokenSeed % 2);
        uint128 bet = uint128(
            t == 0 ? _bound(betSeed, NATIVE_MIN, NATIVE_MAX) : _bound(betSeed, TOKEN_MIN, TOKEN_MAX)
        );
        uint8 seats = uint8(2 + (shapeSeed % 3));
        address[] memory invitees;
        if ((shapeSeed >> 48) % 4 == 0) {
            invitees = new address[](ACTORS - 1);
            uint256 k;
            for (uint256 i; i < ACTORS; ++i) if (actors[i] != creator) invitees[k++] = actors[i];
        }
        IDiceHall.GameConfig memory cfg = IDiceHall.GameConfig({
            token: _tokenAddress(t),
            bet: bet,
            seats: seats,
            ruleSet: uint8((shapeSeed >> 8) % 4),
            joinWindow: uint32(60 + ((shapeSeed >> 16) % 3600)),
            moveTimeout: uint32(60 + ((shapeSeed >> 32) % 3600)),
            invitees: invitees
        });
        uint8 games = (shapeSeed >> 80) % 3 == 0 ? uint8(2 + ((shapeSeed >> 88) % 3)) : 1;
        (uint256 value, IDiceHall.SessionGrant memory grant) = _prepare(creator, t, bet, mode, shapeSeed);
        (bool ok, uint256 id) = _create(creator, cfg, games, mode, value, grant);
        if (ok) {
            gameIds.push(id);
            ghost[id] = GhostGame({
                tokenIndex: t,
                seats: seats,
                seated: 1,
                status: IDiceHall.GameStatus.Open,
                bet: bet,
                closesAt: uint64(block.timestamp + cfg.joinWindow),
                creator: creator,
                games: games,
                gameNumber: 1
            });
            _paid(t, bet, mode, value, grant);
        } else if (!hall.paused()) {
            _break(string.concat("createGame refused a valid lobby: ", _hex(refusal)));
        }
    }

    function _create(
        address creator,
        IDiceHall.GameConfig memory cfg,
        uint8 games,
        uint256 mode,
        uint256 value,
        IDiceHall.SessionGrant memory grant
    ) internal returns (bool, uint256) {
        HEVM.prank(creator);
        if (games != 1) return _createMatch(creator, cfg, games, mode, value, grant);
        if (mode == PAID) {
            try hall.createGame{value: value}(cfg) returns (uint256 id) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        } else if (mode == FROM_CREDIT) {
            try hall.createGameFromCredit(cfg) returns (uint256 id) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        } else {
            try hall.createGameWithSession{value: value}(cfg, grant, _consent(creator, grant)) returns (
                uint256 id
            ) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        }
        return (false, 0);
    }

    /// @dev createMatch and its credit and session forms (the caller already pranked).
    function _createMatch(
        address creator,
        IDiceHall.GameConfig memory cfg,
        uint8 games,
        uint256 mode,
        uint256 value,
        IDiceHall.SessionGrant memory grant
    ) internal returns (bool, uint256) {
        if (mode == PAID) {
            try hall.createMatch{value: value}(cfg, games) returns (uint256 id) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        } else if (mode == FROM_CREDIT) {
            try hall.createMatchFromCredit(cfg, games) returns (uint256 id) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        } else {
            try
                hall.createMatchWithSession{value: value}(cfg, games, grant, _consent(creator, grant))
            returns (uint256 id) {
                return (true, id);
            } catch (bytes memory reason) {
                refusal = reason;
            }
        }
        return (false, 0);
    }

    function _join(
        address player,
        uint256 id,
        uint256 mode,
        uint256 value,
        IDiceHall.SessionGrant memory grant
    ) internal returns (bool) {
        HEVM.prank(player);
        if (mode == PAID) {
            try hall.joinGame{value: value}(id) {
                return true;
            } catch {}
        } else if (mode == FROM_CREDIT) {
            try hall.joinGameFromCredit(id) {
                return true;
            } catch {}
        } else {
            try hall.joinGameWithSession{value: value}(id, grant, _consent(player, grant)) {
                return true;
            } catch {}
        }
        return false;
    }

    /// @dev What a lobby move of `mode` sends; from credit, the bet is deposited first (so the credit holds it).
    function _prepare(
        address player,
        uint8 t,
        uint256 bet,
        uint256 mode,
        uint256 seed
    ) internal returns (uint256 value, IDiceHall.SessionGrant memory grant) {
        if (mode == PAID) return (t == 0 ? bet : 0, grant);
        if (mode == FROM_CREDIT) {
            _deposit(player, t, bet);
            return (0, grant);
        }
        uint256 extra = seed % 1e16;
        grant = _grant(player, seed, extra);
        value = (t == 0 ? bet : 0) + grant.keyGas + extra;
    }

    /// @dev Books a lobby move that went through: the bet went into escrow; what came in and went to a key.
    function _paid(
        uint8 t,
        uint256 bet,
        uint256 mode,
        uint256 value,
        IDiceHall.SessionGrant memory grant
    ) internal {
        escrow[t] += bet;
        if (mode == PAID) moneyIn[t] += bet;
        if (mode != WITH_SESSION) return;
        if (t != 0) moneyIn[t] += bet;
        moneyIn[0] += value;
        moneyOut[0] += grant.keyGas;
    }

    /// @dev A grant for the player's own key, for 1 hour to 7 days, setting aside roll fees out of `extra` (what
    /// the call sends beyond the bet and the key's gas).
    function _grant(
        address player,
        uint256 seed,
        uint256 extra
    ) internal view returns (IDiceHall.SessionGrant memory) {
        return
            IDiceHall.SessionGrant({
                key: keys[_indexOf(player)],
                expiresAt: uint64(block.timestamp + 1 hours + (seed % (7 days - 1 hours))),
                feeAllowance: uint128((seed >> 160) % (extra + 1)),
                keyGas: uint128((seed >> 64) % 1e15)
            });
    }

    /// @dev The player's key's EIP-712 consent to `grant` (core/contract/sessionConsent.ts builds the same).
    function _consent(
        address player,
        IDiceHall.SessionGrant memory grant
    ) internal view returns (bytes memory) {
        bytes32 domain = keccak256(
            abi.encode(
                keccak256(
                    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
                ),
                keccak256("DiceHall"),
                keccak256("1"),
                block.chainid,
                address(hall)
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "SessionConsent(address player,address key,uint64 expiresAt,uint128 feeAllowance,uint128 keyGas)"
                ),
                player,
                grant.key,
                grant.expiresAt,
                grant.feeAllowance,
                grant.keyGas
            )
        );
        (uint8 v, bytes32 r, bytes32 s) = HEVM.sign(
            keyPks[_indexOf(player)],
            keccak256(abi.encodePacked("\x19\x01", domain, structHash))
        );
        return abi.encodePacked(r, s, v);
    }

    function _deposit(address player, uint8 t, uint256 amount) internal {
        HEVM.prank(player);
        try hall.deposit{value: t == 0 ? amount : 0}(_tokenAddress(t), amount) {
            moneyIn[t] += amount;
        } catch {
            _break("a deposit was refused");
        }
    }

    /// @dev Whether a join by `player` goes through now (private lobbies invite every actor but the creator).
    function _joinable(uint256 id, address player) internal view returns (bool) {
        return !hall.paused() && block.timestamp < ghost[id].closesAt && !hall.getPlayer(id, player).seated;
    }

    /// @dev Who sends a player's move: their active key when `seed` says so, else the player.
    function _sender(address player, uint256 seed) internal returns (address) {
        address key = keys[_indexOf(player)];
        if (seed % 2 == 0 || hall.sessionPlayer(key) != player) return player;
        ++keyMoves;
        return key;
    }

    function _indexOf(address player) internal view returns (uint256 i) {
        while (actors[i] != player) ++i;
    }

    /// @notice Opens a lobby and fills it at once, so that most runs have games in play.
    function startGame(uint256 actorSeed, uint256 tokenSeed, uint256 betSeed, uint256 shapeSeed) external {
        uint256 before = gameIds.length;
        this.createGame(actorSeed, tokenSeed, betSeed, shapeSeed);
        if (gameIds.length == before) return;
        uint256 id = gameIds[before];
        for (uint256 k = 1; k < ACTORS && ghost[id].status == IDiceHall.GameStatus.Open; ++k) {
            this.joinGame(before, actorSeed + k);
        }
    }

    function joinGame(uint256 gameSeed, uint256 actorSeed) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Open);
        if (id == 0) return;
        GhostGame storage g = ghost[id];
        address player = _actor(actorSeed);
        uint256 mode = (actorSeed >> 32) % 3;
        // From credit only where the join goes through, so that the deposit before it is not a stray.
        if (mode == FROM_CREDIT && !_joinable(id, player)) return;
        (uint256 value, IDiceHall.SessionGrant memory grant) = _prepare(
            player,
            g.tokenIndex,
            g.bet,
            mode,
            actorSeed >> 40
        );
        if (_join(player, id, mode, value, grant)) {
            _paid(g.tokenIndex, g.bet, mode, value, grant);
            ++g.seated;
            if (g.seated == g.seats) g.status = IDiceHall.GameStatus.Running;
        }
    }

    /// @notice Puts money into an actor's credit.
    function deposit(uint256 actorSeed, uint256 tokenSeed, uint256 amountSeed) external {
        uint8 t = uint8(tokenSeed % 2);
        _deposit(_actor(actorSeed), t, amountSeed % (t == 0 ? 1e18 : 1e9));
    }

    /// @notice An actor names its key (again: a top-up), or revokes it.
    function session(uint256 actorSeed, uint256 seed) external {
        address player = _actor(actorSeed);
        if (seed % 5 == 0) {
            HEVM.prank(player);
            hall.revokeSession();
            return;
        }
        uint256 extra = (seed >> 128) % 1e16;
        IDiceHall.SessionGrant memory grant = _grant(player, seed, extra);
        if (seed % 7 == 1) {
            // Another actor tries to name this key with the consent the key gave its own player: never.
            address other = _actor(actorSeed + 1 + ((seed >> 8) % (ACTORS - 1)));
            bytes memory theirs = _consent(player, grant);
            HEVM.prank(other);
            try hall.openSession{value: grant.keyGas + extra}(grant, theirs) {
                _break("a key was named without its own consent");
            } catch {}
            return;
        }
        uint256 value = grant.keyGas + extra;
        bytes memory consent = _consent(player, grant);
        HEVM.prank(player);
        try hall.openSession{value: value}(grant, consent) {
            moneyIn[0] += value;
            moneyOut[0] += grant.keyGas;
        } catch {
            _break("a valid session was refused");
        }
    }

    /// @notice An actor's key pays the actor out, to the actor.
    function withdrawFor(uint256 actorSeed, uint256 tokenSeed) external {
        address player = _actor(actorSeed);
        uint8 t = uint8(tokenSeed % 2);
        address key = keys[actorSeed % ACTORS];
        bool active = hall.sessionPlayer(key) == player;
        // For the coin, the session's unspent roll fees come with the credit.
        uint256 amount =
            hall.credits(_tokenAddress(t), player) + (t == 0 ? hall.session(player).feeAllowance : 0);
        HEVM.prank(key);
        try hall.withdrawFor(player, _tokenAddress(t)) {
            if (!active) _break("a key that is not active paid out");
            moneyOut[t] += amount;
            ++keyMoves;
        } catch {
            if (active && amount != 0) _break("an active key could not pay its player out");
        }
    }

    function leaveGame(uint256 gameSeed, uint256 actorSeed) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Open);
        if (id == 0) return;
        GhostGame storage g = ghost[id];
        address player = _actor(actorSeed);
        HEVM.prank(player);
        try hall.leaveGame(id) {
            if (player == g.creator) {
                _cancelled(id);
            } else {
                escrow[g.tokenIndex] -= g.bet;
                --g.seated;
            }
        } catch {}
    }

    function cancelGame(uint256 gameSeed, uint256 actorSeed) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Open);
        if (id == 0) return;
        bool expired = block.timestamp >= ghost[id].closesAt;
        HEVM.prank(_actor(actorSeed));
        try hall.cancelGame(id) {
            _cancelled(id);
        } catch {
            if (expired) _break("an expired lobby could not be cancelled");
        }
    }

    /// @notice Rolls for whoever is to move; if their roll is still out, Entropy answers it with `r`.
    function roll(uint256 gameSeed, uint256 maskSeed, uint256 tip, bytes32 r) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Running);
        if (id == 0) return;
        IDiceHall.GameView memory v = hall.getGame(id);
        // An accepted request is never replaced: Entropy answers it.
        if (v.pendingSequence != 0) {
            _reveal(v.pendingSequence, r);
            return;
        }
        _roll(id, v, maskSeed, tip % 1000);
    }

    /// @notice Entropy answers any request it still holds: current, replaced or belonging to a finished game.
    function revealAny(uint256 seqSeed, bytes32 r) external {
        if (sequences.length == 0) return;
        _reveal(sequences[seqSeed % sequences.length], r);
    }

    function score(uint256 gameSeed, uint256 boxSeed) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Running);
        if (id == 0) return;
        _score(id, hall.getGame(id), boxSeed);
    }

    /// @notice A few quick turns: roll, answer, score; so that games do reach their last round.
    function playTurns(uint256 gameSeed, bytes32 r, uint256 boxSeed) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Running);
        if (id == 0) return;
        uint256 turns = 1 + (boxSeed % 8);
        for (uint256 k; k < turns && ghost[id].status == IDiceHall.GameStatus.Running; ++k) {
            _playTurn(id, keccak256(abi.encode(r, k)), boxSeed >> 3);
        }
    }

    /// @notice A match's current game played to its end (at most 64 turns), so that matches do go from game to
    /// game, and some to their last.
    function playMatchGame(uint256 gameSeed, bytes32 r, uint256 boxSeed) external {
        uint256 n = gameIds.length;
        uint256 id;
        for (uint256 k; k < n && id == 0; ++k) {
            uint256 candidate = gameIds[(gameSeed + k) % n];
            GhostGame storage c = ghost[candidate];
            if (c.status == IDiceHall.GameStatus.Running && c.games != 1) id = candidate;
        }
        if (id == 0) return;
        GhostGame storage g = ghost[id];
        uint8 game = g.gameNumber;
        for (uint256 k; k < 64 && g.status == IDiceHall.GameStatus.Running && g.gameNumber == game; ++k) {
            _playTurn(id, keccak256(abi.encode(r, k)), boxSeed >> 3);
        }
    }

    function _playTurn(uint256 id, bytes32 r, uint256 boxSeed) internal {
        IDiceHall.GameView memory v = hall.getGame(id);
        if (v.entropyAttempts != 0) return;
        if (!v.orderDrawn || hall.getPlayer(id, v.players[v.currentSeat]).rollsUsed == 0) {
            if (!_roll(id, v, 0, 0)) return;
            v = hall.getGame(id);
            _reveal(v.pendingSequence, r);
            v = hall.getGame(id);
        }
        _score(id, v, boxSeed);
    }

    function claimTimeout(uint256 gameSeed, uint256 lateBy) external {
        uint256 id = _pick(gameSeed, IDiceHall.GameStatus.Running);
        if (id == 0) return;
        _timeOut(id, lateBy % 600);
    }

    function warp(uint256 seconds_) external {
        HEVM.warp(block.timestamp + (seconds_ % 4000));
    }

    function withdraw(uint256 actorSeed, uint256 tokenSeed) external {
        _withdraw(_actor(actorSeed), uint8(tokenSeed % 2));
    }

    function withdrawTreasury(uint256 tokenSeed, uint256 amountSeed) external {
        uint8 t = uint8(tokenSeed % 2);
        uint256 available = hall.treasury(_tokenAddress(t));
        uint256 amount = amountSeed % (available + 1);
        if (amount == 0) return;
        try hall.withdrawTreasury(_tokenAddress(t), SINK, amount) {
            moneyOut[t] += amount;
        } catch {
            _break("the owner could not take collected fees");
        }
    }

    function togglePause(uint256 seed) external {
        if (seed % 4 != 0) return;
        if (hall.paused()) hall.unpause();
        else hall.pause();
    }

    // ------------------------------------------------------------------ checks (not fuzzed)

    /// @notice Per token: the hall holds exactly escrow + credits + treasury, and that is money in minus out.
    function checkBooks() external view {
        for (uint8 t; t < 2; ++t) {
            uint256 held = _held(t);
            uint256 owed = escrow[t] + hall.treasury(_tokenAddress(t));
            for (uint256 i; i < ACTORS; ++i) {
                owed += hall.credits(_tokenAddress(t), actors[i]);
                // The roll fees set aside for a session, active or expired, are still the player's.
                if (t == 0) owed += hall.session(actors[i]).feeAllowance;
                require(hall.credits(_tokenAddress(t), keys[i]) == 0, "a session key holds credit");
            }
            require(held >= owed, "the hall holds less than escrow + credits + treasury");
            require(held == owed, "the hall holds money nobody is owed");
            require(held + moneyOut[t] == moneyIn[t], "money in != money out + money held");
        }
    }

    /// @notice Every match stays within its length, and its standings within the games it has ended.
    function checkMatches() external view {
        for (uint256 i; i < gameIds.length; ++i) {
            uint256 id = gameIds[i];
            if (ghost[id].games == 1) continue;
            IDiceHall.GameView memory v = hall.getGame(id);
            require(v.gameNumber >= 1 && v.gameNumber <= v.games, "a match's game number left its length");
            // Games ended so far: all before the current one, and the current one too once the match is over.
            uint256 ended = v.gameNumber - (v.status == IDiceHall.GameStatus.Finished ? 0 : 1);
            for (uint256 k; k < v.wins.length; ++k) require(v.wins[k] <= ended, "more wins than games ended");
        }
    }

    /// @notice Ends every game (cancel or time out), pays every credit and the treasury out.
    function settleEverything() external {
        for (uint256 i; i < gameIds.length; ++i) {
            uint256 id = gameIds[i];
            GhostGame storage g = ghost[id];
            if (g.status == IDiceHall.GameStatus.Open) {
                if (block.timestamp < g.closesAt) HEVM.warp(g.closesAt);
                HEVM.prank(SINK);
                try hall.cancelGame(id) {
                    _cancelled(id);
                } catch {
                    _break("an expired lobby could not be cancelled");
                }
            }
            for (uint256 k; k < 4 && g.status == IDiceHall.GameStatus.Running; ++k) _timeOut(id, 0);
            if (g.status == IDiceHall.GameStatus.Running) _break("a game could not be timed out to its end");
        }
        for (uint256 i; i < ACTORS; ++i) {
            // Closing a session, active or expired, returns its unspent roll fees to credit.
            HEVM.prank(actors[i]);
            hall.revokeSession();
            if (hall.session(actors[i]).feeAllowance != 0) _break("a revoked session kept its fees");
            _withdraw(actors[i], 0);
            _withdraw(actors[i], 1);
        }
        for (uint8 t; t < 2; ++t) {
            uint256 fees = hall.treasury(_tokenAddress(t));
            if (fees != 0) {
                hall.withdrawTreasury(_tokenAddress(t), SINK, fees);
                moneyOut[t] += fees;
            }
        }
    }

    /// @notice After settleEverything: nothing left, everything that came in went out.
    function checkDrained() external view {
        require(bytes(broken).length == 0, broken);
        for (uint8 t; t < 2; ++t) {
            require(escrow[t] == 0, "escrow left after every game ended");
            require(_held(t) == 0, "money left in the hall after everyone withdrew");
            require(moneyIn[t] == moneyOut[t], "money in != money out");
        }
    }

    function gameCount() external view returns (uint256) {
        return gameIds.length;
    }

    // ------------------------------------------------------------------ internals

    function _roll(
        uint256 id,
        IDiceHall.GameView memory v,
        uint256 maskSeed,
        uint256 tip
    ) internal returns (bool) {
        // Before the order is drawn any seated player may roll; a refused roll asked again keeps its mask, and
        // anyone may ask again (here a seated player) from its retryAt until the game's call-off window is over.
        address player =
            v.orderDrawn && v.entropyAttempts == 0
                ? v.players[v.currentSeat]
                : v.players[maskSeed % v.players.length];
        uint8 keepMask;
        if (v.entropyAttempts != 0) {
            // No request is accepted in the call-off window's last hour.
            if (v.retryAt == 0 || block.timestamp < v.retryAt || block.timestamp + 1 hours >= v.callOffAt)
                return false;
            keepMask = v.pendingKeepMask;
        } else {
            uint8 used = v.orderDrawn ? hall.getPlayer(id, player).rollsUsed : 0;
            if (used == 3) return false;
            keepMask = used == 0 ? 0 : uint8(maskSeed % 31);
        }
        address sender = _sender(player, maskSeed >> 8);
        // A key sends nothing: the fee comes from its session's roll fees.
        if (sender != player) tip = 0;
        HEVM.prank(sender);
        try hall.roll{value: tip}(id, keepMask) {
            moneyIn[0] += tip;
            sequences.push(hall.getGame(id).pendingSequence);
            return true;
        } catch {
            _break("the player to move could not roll");
            return false;
        }
    }

    function _reveal(uint64 sequence, bytes32 r) internal {
        if (entropy.getRequestV2(PROVIDER, sequence).requester == address(0)) return;
        try entropy.mockReveal(PROVIDER, sequence, r) {} catch {
            _break("the Entropy callback reverted");
        }
    }

    function _score(uint256 id, IDiceHall.GameView memory v, uint256 boxSeed) internal {
        if (!v.orderDrawn || v.entropyAttempts != 0) return;
        address player = v.players[v.currentSeat];
        if (hall.getPlayer(id, player).rollsUsed == 0) return;
        uint256 boxes =
            v.config.ruleSet == 1
                ? 15
                : v.config.ruleSet == 3
                    ? 16
                    : 13;
        address sender = _sender(player, boxSeed >> 16);
        for (uint256 k; k < boxes; ++k) {
            HEVM.prank(sender);
            try hall.score(id, uint8((boxSeed + k) % boxes)) {
                _afterMove(id);
                return;
            } catch {}
        }
        _break("a player with dice had no box to fill");
    }

    function _timeOut(uint256 id, uint256 lateBy) internal {
        IDiceHall.GameView memory v = hall.getGame(id);
        // Nobody forfeits while a roll is out: only its call-off window ends the wait.
        uint256 deadline = v.entropyAttempts == 0 ? v.deadline : v.callOffAt;
        uint256 at = deadline + 1 + lateBy;
        if (at > block.timestamp) HEVM.warp(at);
        HEVM.prank(SINK);
        try hall.claimTimeout(id) {
            _afterMove(id);
        } catch {
            _break("claimTimeout refused after the deadline");
        }
    }

    function _withdraw(address account, uint8 t) internal {
        uint256 amount = hall.credits(_tokenAddress(t), account);
        if (amount == 0) return;
        HEVM.prank(account);
        try hall.withdraw(_tokenAddress(t)) {
            moneyOut[t] += amount;
        } catch {
            _break("a player could not withdraw their credits");
        }
    }

    function _afterMove(uint256 id) internal {
        GhostGame storage g = ghost[id];
        IDiceHall.GameView memory v = hall.getGame(id);
        IDiceHall.GameStatus status = v.status;
        if (v.games != g.games) _break("a match changed its length");
        if (v.gameNumber < g.gameNumber || v.gameNumber > g.games)
            _break("a match's game number left its length");
        if (v.gameNumber > g.gameNumber) {
            // A game ended and the next began in the same move: the stakes stay in escrow for it.
            if (status != IDiceHall.GameStatus.Running) _break("a match went to its next game and ended");
            matchGamesEnded += v.gameNumber - g.gameNumber;
            g.gameNumber = v.gameNumber;
        }
        if (g.status == IDiceHall.GameStatus.Running && status != IDiceHall.GameStatus.Running) {
            // Finished, or called off (Entropy failed, or nobody drew the order): the whole pot left escrow.
            g.status = status;
            escrow[g.tokenIndex] -= uint256(g.bet) * g.seats;
            if (status == IDiceHall.GameStatus.Finished) ++finishedGames;
            else ++cancelledGames;
        }
    }

    function _cancelled(uint256 id) internal {
        GhostGame storage g = ghost[id];
        escrow[g.tokenIndex] -= uint256(g.bet) * g.seated;
        g.status = IDiceHall.GameStatus.Cancelled;
        ++cancelledGames;
    }

    /// @dev A game with the wanted status, searching from the seed; 0 if there is none.
    function _pick(uint256 seed, IDiceHall.GameStatus status) internal view returns (uint256) {
        uint256 n = gameIds.length;
        for (uint256 k; k < n; ++k) {
            uint256 id = gameIds[(seed + k) % n];
            if (ghost[id].status == status) return id;
        }
        return 0;
    }

    function _actor(uint256 seed) internal view returns (address) {
        return actors[seed % ACTORS];
    }

    function _tokenAddress(uint8 t) internal view returns (address) {
        return t == 0 ? address(0) : address(token);
    }

    function _held(uint8 t) internal view returns (uint256) {
        return t == 0 ? address(hall).balance : token.balanceOf(address(hall));
    }

    function _bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        return min + (x % (max - min + 1));
    }

    /// @dev The revert data as hex (its first 4 bytes name the custom error), for a failure's message.
    function _hex(bytes memory data) internal pure returns (string memory) {
        bytes memory out = new bytes(2 + data.length * 2);
        out[0] = "0";
        out[1] = "x";
        bytes16 digits = "0123456789abcdef";
        for (uint256 i; i < data.length; ++i) {
            out[2 + i * 2] = digits[uint8(data[i]) >> 4];
            out[3 + i * 2] = digits[uint8(data[i]) & 15];
        }
        return string(out);
    }

    function _break(string memory why) internal {
        if (bytes(broken).length == 0) broken = why;
    }
}

/// @notice The money invariant of docs/DESIGN.md, after every step of random play, and the books balanced to
/// zero once every game is ended and everyone has withdrawn.
contract DiceHallInvariantTest {
    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    DiceHallHandler internal handler;

    function setUp() public {
        handler = new DiceHallHandler();
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    function targetSelectors() public view returns (FuzzSelector[] memory targets) {
        bytes4[] memory s = new bytes4[](18);
        s[0] = DiceHallHandler.createGame.selector;
        s[1] = DiceHallHandler.startGame.selector;
        s[2] = DiceHallHandler.joinGame.selector;
        s[3] = DiceHallHandler.leaveGame.selector;
        s[4] = DiceHallHandler.cancelGame.selector;
        s[5] = DiceHallHandler.roll.selector;
        s[6] = DiceHallHandler.revealAny.selector;
        s[7] = DiceHallHandler.score.selector;
        s[8] = DiceHallHandler.playTurns.selector;
        s[9] = DiceHallHandler.claimTimeout.selector;
        s[10] = DiceHallHandler.warp.selector;
        s[11] = DiceHallHandler.withdraw.selector;
        s[12] = DiceHallHandler.withdrawTreasury.selector;
        s[13] = DiceHallHandler.togglePause.selector;
        s[14] = DiceHallHandler.deposit.selector;
        s[15] = DiceHallHandler.session.selector;
        s[16] = DiceHallHandler.withdrawFor.selector;
        s[17] = DiceHallHandler.playMatchGame.selector;
        targets = new FuzzSelector[](1);
        targets[0] = FuzzSelector({addr: address(handler), selectors: s});
    }

    function invariant_hallHoldsExactlyEscrowCreditsAndTreasury() public view {
        handler.checkBooks();
    }

    function invariant_matchesStayWithinTheirLength() public view {
        handler.checkMatches();
    }

    function invariant_noPromiseBroken() public view {
        require(bytes(handler.broken()).length == 0, handler.broken());
    }

    function afterInvariant() public {
        handler.settleEverything();
        handler.checkDrained();
    }
}
