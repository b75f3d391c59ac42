// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Which game, roll and player each Entropy request belongs to, so the callback can find them.
/// @dev A fresh storage slot costs 22 100 gas, more than the rest of a roll. So requests live in a ring of
/// 64 slots written once at deployment (a rewrite costs 5 000), chosen by sequence number mod 64; a slot
/// still held by a request that may yet give a game its dice sends the request to a plain mapping instead,
/// keyed by the provider's id and the sequence number (providers number their requests independently).
/// A roll has at most one accepted request (never replaced), and an entry names its roll by a tag (the count
/// of rolls the game had delivered when it was asked): only the game's current tag gives dice, so a late
/// answer of an earlier roll never does.
///
///   entry: 255 ─ player (0 for a game's first roll) ─ 96 | 95 ─ roll tag ─ 80 | 79 ─ game id ─ 32 | 31 ─ low 32 bits of the sequence ─ 0
library PendingRolls {
    uint256 internal constant RING_SIZE = 64;
    /// @dev A ring entry that names no game.
    uint256 internal constant EMPTY = 1;

    struct Registry {
        uint256[RING_SIZE] ring;
        mapping(uint256 providerAndSequence => uint256) overflow;
    }

    /// @notice Writes every ring slot once so that later rolls pay for a rewrite, not a new slot.
    function prewarm(Registry storage r) internal {
        for (uint256 i; i < RING_SIZE; ++i) r.ring[i] = EMPTY;
    }

    /// @notice The request that last used the ring slot of `sequence`: its game, roll tag and low bits.
    function occupant(
        Registry storage r,
        uint64 sequence
    ) internal view returns (uint256 gameId, uint16 tag, uint32 low) {
        uint256 e = r.ring[sequence % RING_SIZE];
        return (uint48(e >> 32), uint16(e >> 80), uint32(e));
    }

    /// @notice Records a request; `ringBusy` says the ring slot still belongs to a request that may give dice.
    /// @dev Game ids stay below 2^48 (at a game a second, for nine million years).
    function store(
        Registry storage r,
        uint16 providerId,
        uint64 sequence,
        uint256 gameId,
        uint16 tag,
        address player,
        bool ringBusy
    ) internal {
        uint256 e =
            (uint256(uint160(player)) << 96) |
                (uint256(tag) << 80) |
                (uint256(uint48(gameId)) << 32) |
                uint32(sequence);
        if (ringBusy) r.overflow[_key(providerId, sequence)] = e;
        else r.ring[sequence % RING_SIZE] = e;
    }

    /// @notice The request the ring slot of `sequence` names, if its low bits match; else a zero entry.
    /// @dev The caller still checks that the game is waiting for this roll, from this provider.
    function ringEntry(
        Registry storage r,
        uint64 sequence
    ) internal view returns (uint256 gameId, address player, uint16 tag) {
        uint256 e = r.ring[sequence % RING_SIZE];
        if (uint32(e) != uint32(sequence)) return (0, address(0), 0);
        return _decode(e);
    }

    /// @notice A request filed in the overflow mapping, which it leaves; else a zero entry.
    function takeOverflow(
        Registry storage r,
        uint16 providerId,
        uint64 sequence
    ) internal returns (uint256 gameId, address player, uint16 tag) {
        uint256 key = _key(providerId, sequence);
        uint256 e = r.overflow[key];
        if (e == 0) return (0, address(0), 0);
        delete r.overflow[key];
        return _decode(e);
    }

    function _decode(uint256 e) private pure returns (uint256 gameId, address player, uint16 tag) {
        return (uint48(e >> 32), address(uint160(e >> 96)), uint16(e >> 80));
    }

    function _key(uint16 providerId, uint64 sequence) private pure returns (uint256) {
        return (uint256(providerId) << 64) | sequence;
    }
}
