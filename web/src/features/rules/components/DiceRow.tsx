import { DieFace } from "@/ui/table/Die.tsx";

/** Five small dice for examples; read as "3, 3, 3, 5, 2", or as `label` when given. */
export function DiceRow({ dice, label }: { dice: readonly number[]; label?: string }) {
  return (
    <span className="rules-dice" role="img" aria-label={label ?? dice.join(", ")}>
      {dice.map((value, i) => (
        <span key={i} className="rules-dice__die">
          <DieFace value={value} />
        </span>
      ))}
    </span>
  );
}
