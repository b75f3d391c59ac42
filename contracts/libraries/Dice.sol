// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDiceHall} from "../interfaces/IDiceHall.sol";

/// @notice Five dice packed 3 bits a die (die i at bits 3i..3i+2), and the facts scoring needs about them.
library Dice {
    uint256 internal constant BITS = 3;
    uint256 internal constant MASK = 7;
    uint256 internal constant COUNT = 5;
    /// @dev A keep mask that keeps all five dice.
    uint8 internal constant KEEP_ALL = 31;

    /// @notice Packs five dice, checking each is 1..6.
    function pack(uint8[5] memory values) internal pure returns (uint256 packed) {
        for (uint256 i; i < COUNT; ++i) {
            uint8 v = values[i];
            if (v == 0 || v > 6) revert IDiceHall.InvalidDie(uint8(i), v);
            packed |= uint256(v) << (BITS * i);
        }
    }

    function unpack(uint256 packed) internal pure returns (uint8[5] memory values) {
        for (uint256 i; i < COUNT; ++i) {
            values[i] = uint8((packed >> (BITS * i)) & MASK);
        }
    }

    /// @notice Re-rolls every die whose keep bit is clear, from the revealed random number alone:
    /// die i = 1 + uint256(keccak256(abi.encode(random, i))) % 6 (docs/RULES.md, "Dice from randomness").
    function roll(uint256 packed, uint8 keepMask, bytes32 random) internal pure returns (uint256) {
        for (uint256 i; i < COUNT; ++i) {
            if ((keepMask >> i) & 1 == 1) continue;
            uint256 h;
            assembly ("memory-safe") {
                // abi.encode(bytes32, uint256) is these two words; the scratch space holds them.
                mstore(0x00, random)
                mstore(0x20, i)
                h := keccak256(0x00, 0x40)
            }
            uint256 shift = BITS * i;
            packed = (packed & ~(MASK << shift)) | ((1 + (h % 6)) << shift);
        }
        return packed;
    }

    /// @notice How many dice show each face: face f's count at bits 4(f-1)..4(f-1)+3.
    function faceCounts(uint256 packed) internal pure returns (uint256 counts) {
        // Each face count is at most 5, so no 4-bit field carries into the next.
        unchecked {
            for (uint256 i; i < COUNT; ++i) {
                counts += 1 << (4 * (((packed >> (BITS * i)) & MASK) - 1));
            }
        }
    }

    function count(uint256 counts, uint256 face) internal pure returns (uint256) {
        return (counts >> (4 * (face - 1))) & 0xf;
    }
}
