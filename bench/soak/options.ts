import { parseArgs } from "node:util";

/** How often each kind of chaos strikes, in seconds (each at a jittered time), and how long what it stops stays down. */
export interface ChaosPlan {
  killEveryS: number;
  /** A killed service process is started again after this long. */
  killDownS: [number, number];
  redisEveryS: number;
  redisDownS: [number, number];
  pgEveryS: number;
}

export interface CityOptions {
  processes: number;
  drivers: number;
  passengers: number;
  durationS: number;
  seed: number;
  chaos: ChaosPlan;
  /** A passenger cancels a request nobody has taken after this long. */
  patienceS: number;
  /** After the run, with chaos off, how long the city may take to finish what it started. */
  graceS: number;
}

export interface ProbeOptions {
  seed: number;
  rounds: number;
  pgRounds: number;
}

export type Options = { build: boolean } & ({ mode: "city"; city: CityOptions } | { mode: "probe"; probe: ProbeOptions });

export const USAGE = `npm run soak [-- options]

  (no option)        the long city: 3 processes, 60 drivers, 40 passengers, 10 minutes of chaos
  --short            the short city CI runs: 3 processes, 20 drivers, 14 passengers, 2 minutes
  --duration <s>     seconds of chaos (then a grace period with chaos off)
  --processes <n>    service processes (at least 2)
  --drivers <n>      drivers, onboarded through the app's calls
  --passengers <n>   passengers
  --seed <n>         the seed of every random choice (printed in the report)
  --probe            the probe instead: a keyed create_trip.php, its process killed, the request retried elsewhere
  --rounds <n>       probe: rounds with a process killed (40)
  --pg-rounds <n>    probe: rounds with PostgreSQL restarted (6)
  --no-build         run build/ as it is instead of building it first
`;

const LONG = { processes: 3, drivers: 60, passengers: 40, durationS: 600 };
const SHORT = { processes: 3, drivers: 20, passengers: 14, durationS: 120 };
// The city: a process every 45 s, Redis every 2.5 min, PostgreSQL every 3 min.
const LONG_CHAOS: ChaosPlan = { killEveryS: 45, killDownS: [2, 5], redisEveryS: 150, redisDownS: [3, 8], pgEveryS: 180 };
// Scaled down to 2 minutes: about three kills, Redis and PostgreSQL once or twice.
const SHORT_CHAOS: ChaosPlan = { killEveryS: 30, killDownS: [2, 4], redisEveryS: 55, redisDownS: [3, 6], pgEveryS: 70 };

/** Thrown for a flag the tool does not understand; the caller prints it with the usage. */
export class UsageError extends Error {}

function count(value: string | undefined, flag: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} must be a whole number of at least ${min} (got "${value}")`);
  return n;
}

export function parseOptions(argv: string[]): Options | "help" {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return "help";
  const build = !values["no-build"];
  const seed = count(values.seed, "seed", Math.floor(Math.random() * 1_000_000), 0);
  if (values.probe) {
    return {
      build,
      mode: "probe",
      probe: { seed, rounds: count(values.rounds, "rounds", 40), pgRounds: count(values["pg-rounds"], "pg-rounds", 6, 0) },
    };
  }
  const base = values.short ? SHORT : LONG;
  const processes = count(values.processes, "processes", base.processes, 2);
  const durationS = count(values.duration, "duration", base.durationS, 30);
  const patienceS = values.short ? 40 : 45;
  return {
    build,
    mode: "city",
    city: {
      processes,
      drivers: count(values.drivers, "drivers", base.drivers),
      passengers: count(values.passengers, "passengers", base.passengers),
      durationS,
      seed,
      chaos: values.short ? SHORT_CHAOS : LONG_CHAOS,
      patienceS,
      // Long enough for a request made just before the end to be given up on, taken and driven.
      graceS: patienceS + 60,
    },
  };
}

const parse = (argv: string[]) =>
  parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: "boolean", short: "h" },
      short: { type: "boolean" },
      probe: { type: "boolean" },
      "no-build": { type: "boolean" },
      duration: { type: "string" },
      processes: { type: "string" },
      drivers: { type: "string" },
      passengers: { type: "string" },
      seed: { type: "string" },
      rounds: { type: "string" },
      "pg-rounds": { type: "string" },
    },
  });
