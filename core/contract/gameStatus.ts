// DiceHall's GameStatus enum (contracts/interfaces/IDiceHall.sol) as the numbers its views return:
// one home for them, so no script, keeper or notifier compares a status with a bare number.
export const GAME_STATUS = { None: 0, Open: 1, Running: 2, Finished: 3, Cancelled: 4 } as const;

export type GameStatusCode = (typeof GAME_STATUS)[keyof typeof GAME_STATUS];
