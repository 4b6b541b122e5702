/** Types of e2e-ports.mjs. */
/**
 * The e2e run's two ports, from `env` (`E2E_PORT`, `E2E_MODEL_PORT`) or picked free on 127.0.0.1
 * and stored into `env`, so every process of the run uses the same.
 * @throws Error naming the variable when a given value is not a port number
 */
export declare function e2ePorts(env?: Record<string, string | undefined>): Promise<{ appPort: number; modelPort: number; pgAppPort: number }>;
