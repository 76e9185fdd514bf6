"""A sphere dropped on a floor with restitution 0.8, stepped by treedyn.contact_step (the operational-space
contact LCP; collisions with restitution, Coulomb friction): prints, at each bounce, the vertical speed before and
after (their ratio is eps), the impulse and the mechanical energy, and the time per step. A spin and a
horizontal speed make the friction work too (the spin slips against the floor at the first bounce); the spin
and the speed the ball keeps never raise its energy (free bodies are stepped as rigid motions: docs/contact.md,
"Free joints"), and at the end it prints the largest energy rise of one step and the spin.

Run from a build tree:  PYTHONPATH=build/ci/python /usr/bin/python3 examples/python/bouncing_sphere.py [out.png]
With a file name (and matplotlib installed) it also plots the height and the energy against time.
"""
import sys
import time

import numpy as np

import treedyn

MASS, RADIUS, G, EPS, DT, STEPS = 1.0, 0.1, 9.81, 0.8, 1e-3, 1500


def main():
    b = treedyn.ModelBuilder()
    b.add_body(-1, treedyn.Joint.free_flyer(), mass=MASS, inertia=np.eye(3) * 0.4 * MASS * RADIUS**2, name="ball")
    model = b.build()
    geometry = treedyn.CollisionGeometry(model, [treedyn.Shape.sphere(0, (0, 0, 0), RADIUS, "ball"),
                                                 treedyn.Shape.plane(treedyn.world, (0, 0, 0), (0, 0, 1), "floor")])
    ws = treedyn.ContactStep(model, geometry.max_contacts)  # allocates once
    q = np.array([0, 0, 0.5, 0, 0, 0, 1.0])           # position (m), quaternion (x, y, z, w)
    v = np.array([0, 5.0, 0, 0.2, 0, 0])              # [omega; v_O] in body coordinates (rad/s, m/s)
    tau = np.zeros(6)

    def vz():  # the world vertical velocity of the centre: R v_O (v_O in body coordinates)
        R, _ = treedyn.forward_kinematics(model, q)
        return (R[0] @ v[3:])[2]

    def energy():
        H = treedyn.crba(model, q)
        return 0.5 * v @ H @ v + MASS * G * q[2]

    t, heights, energies = [], [], []
    start = time.perf_counter()
    for k in range(STEPS):
        contacts = treedyn.detect_contacts(model, geometry, q, 0.01, mu=0.3, restitution=EPS)
        before = vz()
        q, v, status = treedyn.contact_step(model, ws, q, v, tau, contacts, DT, inplace=True)
        if not status:
            raise RuntimeError(f"step {k}: {status}")
        if status.collisions:
            after = vz() + G * DT  # the step adds -g dt after the collision
            print(f"t = {k * DT:5.3f} s  bounce: vz {before:+.3f} -> {after:+.3f} m/s (ratio {-after / before:.3f}), "
                  f"impulse {ws.normal_impulses.max():.4f} N s, energy {energy():.4f} J")
        t.append(k * DT)
        heights.append(q[2])
        energies.append(energy())
    elapsed = time.perf_counter() - start
    print(f"{STEPS} steps in {elapsed:.3f} s ({elapsed / STEPS * 1e6:.0f} us per step, detection included); "
          f"energy {energies[0]:.4f} J -> {energies[-1]:.4f} J")
    rise = max(b - a for a, b in zip(energies, energies[1:]))
    print(f"largest energy rise of one step {rise:.2e} J; spin at the end {np.linalg.norm(v[:3]):.3f} rad/s, "
          f"horizontal speed {np.linalg.norm((treedyn.forward_kinematics(model, q)[0][0] @ v[3:])[:2]):.3f} m/s")

    if len(sys.argv) > 1:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no plot")
            return
        fig, ax = plt.subplots(2, 1, sharex=True)
        ax[0].plot(t, heights)
        ax[0].set_ylabel("height (m)")
        ax[1].plot(t, energies)
        ax[1].set_ylabel("energy (J)")
        ax[1].set_xlabel("time (s)")
        fig.savefig(sys.argv[1])
        print("wrote", sys.argv[1])


if __name__ == "__main__":
    main()
