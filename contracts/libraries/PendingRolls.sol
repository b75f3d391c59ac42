// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Which game and player each pending Entropy request belongs to, so the callback can find them.
/// @dev A fresh storage slot costs 22 100 gas, more than the rest of a roll. So requests live in a ring of
/// 64 slots written once at deployment (a rewrite costs 5 000), chosen by sequence number mod 64; a slot
/// still held by another game's pending roll sends the request to a plain mapping instead, keyed by the
/// provider's id and the sequence number (providers number their requests independently).
///
///   entry: 255 ─ player (0 for a game's first roll) ─ 96 | 95 ─ game id ─ 32 | 31 ─ low 32 bits of the sequence ─ 0
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

    /// @notice The game whose request last used the ring slot of `sequence`, and that request's low bits.
    function occupant(
        Registry storage r,
        uint64 sequence
    ) internal view returns (uint256 gameId, uint32 low) {
        uint256 e = r.ring[sequence % RING_SIZE];
        return (uint64(e >> 32), uint32(e));
    }

    /// @notice Records a request; `ringBusy` says the ring slot still belongs to another pending request.
    function store(
        Registry storage r,
        uint16 providerId,
        uint64 sequence,
        uint256 gameId,
        address player,
        bool ringBusy
    ) internal {
        uint256 e = (uint256(uint160(player)) << 96) | (uint256(uint64(gameId)) << 32) | uint32(sequence);
        if (ringBusy) r.overflow[_key(providerId, sequence)] = e;
        else r.ring[sequence % RING_SIZE] = e;
    }

    /// @notice The game and player the ring slot of `sequence` names, if its low bits match; else (0, 0).
    /// @dev The caller still checks that the game is waiting for exactly this request.
    function ringEntry(
        Registry storage r,
        uint64 sequence
    ) internal view returns (uint256 gameId, address player) {
        uint256 e = r.ring[sequence % RING_SIZE];
        if (uint32(e) != uint32(sequence)) return (0, address(0));
        return (uint64(e >> 32), address(uint160(e >> 96)));
    }

    /// @notice The game and player of a request filed in the overflow mapping, which it leaves; else (0, 0).
    function takeOverflow(
        Registry storage r,
        uint16 providerId,
        uint64 sequence
    ) internal returns (uint256 gameId, address player) {
        uint256 key = _key(providerId, sequence);
        uint256 e = r.overflow[key];
        if (e == 0) return (0, address(0));
        delete r.overflow[key];
        return (uint64(e >> 32), address(uint160(e >> 96)));
    }

    function _key(uint16 providerId, uint64 sequence) private pure returns (uint256) {
        return (uint256(providerId) << 64) | sequence;
    }
}
