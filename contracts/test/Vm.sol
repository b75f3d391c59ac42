// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The cheat codes our Solidity tests use (forge-std does not work under Hardhat 3).
// "Vm" is the name every Solidity test suite knows.
// solhint-disable-next-line interface-starts-with-i
interface Vm {
    function warp(uint256 timestamp) external;
    function prank(address sender) external;
    function startPrank(address sender) external;
    function stopPrank() external;
    function deal(address account, uint256 balance) external;
    function assume(bool condition) external pure;
    function expectRevert(bytes calldata revertData) external;
    function expectRevert(bytes4 selector) external;
    function readFile(string calldata path) external view returns (string memory);
    function parseJson(string calldata json, string calldata key) external pure returns (bytes memory);
    function toString(uint256 value) external pure returns (string memory);
}

/// @dev The cheat-code address: address(uint160(uint256(keccak256("hevm cheat code")))).
Vm constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);
