// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice A game's turn order packed in one byte: 2 bits a position, each holding a join index (0..3).
library TurnOrder {
    /// @notice The join index of the player at `position` in turn order.
    function at(uint8 order, uint256 position) internal pure returns (uint256) {
        return (uint256(order) >> (2 * position)) & 3;
    }

    /// @notice The position in turn order of the player with `joinIndex`.
    function positionOf(uint8 order, uint256 joinIndex, uint8 seats) internal pure returns (uint256 p) {
        while (p + 1 < seats && at(order, p) != joinIndex) ++p;
    }

    /// @notice A uniformly shuffled order of `seats` join indices (Fisher-Yates).
    function shuffle(uint256 seed, uint8 seats) internal pure returns (uint8 order) {
        uint256[4] memory idx = [uint256(0), 1, 2, 3];
        for (uint256 i = seats - 1; i > 0; --i) {
            uint256 j = seed % (i + 1);
            seed /= 24; // 24 = 4!: enough fresh bits for every draw
            (idx[i], idx[j]) = (idx[j], idx[i]);
        }
        for (uint256 p; p < seats; ++p) order |= uint8(idx[p] << (2 * p));
    }

    /// @notice The next position after `turn` whose player has not forfeited, and whether the round wrapped.
    /// @dev The caller guarantees at least one player other than the current one is still in.
    function next(
        uint8 order,
        uint8 turn,
        uint8 forfeited,
        uint8 seats
    ) internal pure returns (uint8 position, bool wrapped) {
        position = turn;
        // Positions stay below 4; the loop ends within `seats` steps since some player is still in.
        unchecked {
            do {
                ++position;
                if (position == seats) (position, wrapped) = (0, true);
            } while ((forfeited >> at(order, position)) & 1 == 1);
        }
    }

    /// @notice How many players have not forfeited.
    function activeCount(uint8 forfeited, uint8 seats) internal pure returns (uint256 n) {
        for (uint256 j; j < seats; ++j) if ((forfeited >> j) & 1 == 0) ++n;
    }
}
