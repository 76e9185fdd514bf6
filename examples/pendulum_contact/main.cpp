// pendulum_contact: Jain (n.d.) §8 — the multi-link pendulum falling against a floor and a wall,
// simulated in minimal coordinates (OS) and with free bodies and hinge constraints (NMC/OS), and the LCP
// sizes of Table 2.
//
// For n = 3, 6, 12, 15, 24, 30 links (robots::SpherePendulum: 1 kg spheres of radius 12/(2n) m, base
// hinge 10 m up, wall 4 m away, g = 9.8) prints Table 2's LCP sizes for four contacts and four friction
// directions — OS n_u(n_f + 2), NMC/OS n_b + n_u(n_f + 2), NMC 6n + n_b + n_u(n_f + 2) — computed from
// the models, then simulates both formulations from the paper's initial state with contact_step
// (Δt = 0.1 ms, μ = 0.5, ε = 0.7, n_f = 4; contacts from detect_contacts with a 5 mm margin, so a step
// can close a gap it is about to cross) and prints the wall time per simulated second of each, the
// NMC/OS-to-OS ratio (Jain's "speed-up"), the largest LCP solved and the largest distance between the
// two formulations' last-link centres, the initial mechanical energy and the largest rise above it
// (sampled every millisecond; contacts and collisions with ε < 1 should only remove energy). Writes
// pendulum_contact_n<n>.csv (t, OS x, y, NMC x, y of the last sphere's centre, every millisecond) and
// pendulum_contact_n<n>_frames.csv (the OS chain — base hinge, then every sphere's centre and radius — at
// nine instants, one gnuplot data block each) into the output directory (created if missing), and
// pendulum_contact_speedup.csv (n, both wall times per simulated second, our speed-up and Table 2's). When
// gnuplot is installed it draws pendulum_contact_n<n>.png (the chain at those instants, floor y = 0 and
// wall x = 4, the last sphere's OS and NMC/OS paths) and pendulum_contact_speedup.png (speed-up against n,
// ours and Table 2's).
//
// Usage: pendulum_contact [--quick] [--seconds T] [--out DIR]
//   --quick     300 steps of n = 3 and 6 (for CI)
//   --seconds   simulated time per run (default 1 s)
//   --out       directory for the CSV and PNG files (default: the current directory)
// Exits non-zero when a step fails or a state is not finite. The paper's times come from PATH and Bullet
// on unknown hardware; only the trend (the speed-up growing with n) is comparable.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <treedyn/algorithms/forward_kinematics.hpp>
#include <treedyn/algorithms/rnea.hpp>
#include <treedyn/contact/contact_step.hpp>
#include <treedyn/collision/geometry.hpp>
#include <treedyn/robots/sphere_pendulum.hpp>
#include <treedyn/status_io.hpp>

namespace {

using namespace treedyn;
using Clock = std::chrono::steady_clock;
using VectorX = Eigen::VectorXd;

struct Run {
  bool ok = true;
  double seconds = 0.0;              ///< wall time of the steps (detection included)
  int max_lcp = 0;                   ///< the largest LCP solved
  int max_contacts = 0;
  std::vector<Eigen::Vector2d> path;  ///< the last sphere's centre every `sample` steps
  std::vector<std::pair<double, std::vector<Eigen::Vector2d>>> frames;  ///< (t, every sphere's centre) every `frame` steps
  double energy0 = 0.0;              ///< the initial mechanical energy
  double max_gain = 0.0;             ///< the largest rise of the energy above its initial value
};

/// Kinetic plus potential energy of the state whose placements are in data (body velocities by RNEA's
/// outward pass).
double energy(const Model<double>& model, Data<double>& data, const VectorX& q, const VectorX& v) {
  rnea(model, data, q, v, VectorX::Zero(model.nv()));
  double e = 0.0;
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<double>& I = model.inertia(i);
    const Eigen::Vector3d com = data.X_world[i].r + data.X_world[i].E.transpose() * I.com();
    e += 0.5 * data.v[i].dot(I.matrix() * data.v[i]) - I.m * model.gravity().dot(com);
  }
  return e;
}

/// Simulates `steps` steps of one formulation from (q, v), sampling the last sphere's centre.
Run simulate(const Model<double>& model, const CollisionGeometry<double>& geometry,
             const std::vector<BilateralConstraint<double>>& hinges, VectorX q, VectorX v, double radius, int steps,
             int sample, int frame) {
  const double dt = 1e-4, margin = 5e-3;
  const ContactProperties<double> props{0.5, 0.7, 4};
  Data<double> data(model);
  ContactStepWorkspace<double, Dynamic> ws(model, geometry.max_contacts(), 4, hinges);
  std::vector<Contact<double>> contacts;
  contacts.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  const VectorX tau = VectorX::Zero(model.nv());
  const int last = model.nbodies() - 1;
  const auto centre = [&](int body) {
    const Eigen::Vector3d c = data.X_world[body].r + data.X_world[body].E.transpose() * Eigen::Vector3d(0, -radius, 0);
    return Eigen::Vector2d(c.x(), c.y());
  };
  Run run;
  const Clock::time_point start = Clock::now();
  for (int step = 0; step <= steps; ++step) {
    forward_kinematics(model, data, q);
    if (step % sample == 0) {
      const double e = energy(model, data, q, v);
      if (step == 0) run.energy0 = e;
      run.max_gain = std::max(run.max_gain, e - run.energy0);
      run.path.push_back(centre(last));
    }
    if (step % frame == 0) {
      std::vector<Eigen::Vector2d> chain;
      for (int body = 0; body <= last; ++body) chain.push_back(centre(body));
      run.frames.emplace_back(step * dt, std::move(chain));
    }
    if (step == steps) break;
    detect_contacts(model, data, geometry, contacts, margin, props);
    const ContactStepStatus<double>& status = contact_step(model, data, ws, q, v, tau, contacts, dt);
    if (!status.ok() || !ws.q_next.allFinite() || !ws.v_next.allFinite()) {
      static const char* const phases[] = {"none", "compression", "decompression", "time step"};
      std::fprintf(stderr, "step %d failed: %s, in the %s phase, %zu contacts%s\n", step, treedyn::to_string(status).c_str(),
                   phases[static_cast<int>(status.phase)], contacts.size(),
                   status.ok() ? " (a non-finite q or v after a successful step)" : "");
      run.ok = false;
      break;
    }
    if (ws.lcp_size() > run.max_lcp) run.max_lcp = ws.lcp_size();
    if (static_cast<int>(contacts.size()) > run.max_contacts) run.max_contacts = static_cast<int>(contacts.size());
    q = ws.q_next;
    v = ws.v_next;
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

/// Writes `script` to `path` and runs gnuplot on it; false if either fails.
bool gnuplot(const std::string& path, const std::string& script) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fputs(script.c_str(), f);
  std::fclose(f);
  return std::system(("gnuplot '" + path + "'").c_str()) == 0;
}

/// The OS chain at the recorded instants: one block per instant (the base hinge with radius 0, then every
/// sphere's centre and radius), blocks separated by two blank lines so gnuplot's `index` selects them.
bool write_frames(const std::string& path, const Run& run, double radius) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  for (const auto& [t, chain] : run.frames) {
    std::fprintf(f, "# t = %.3f s\n%.4f,0,10,0\n", t, t);
    for (const Eigen::Vector2d& c : chain) std::fprintf(f, "%.4f,%.9f,%.9f,%.6f\n", t, c.x(), c.y(), radius);
    std::fprintf(f, "\n\n");
  }
  std::fclose(f);
  return true;
}

/// The motion figure: the chain (polyline from the base hinge through the sphere centres, spheres as
/// circles) at each recorded instant, the floor y = 0, the wall x = 4 and the last sphere's paths.
std::string motion_script(const std::string& stem, int n, const Run& run) {
  std::string titles;
  for (const auto& frame : run.frames) {
    char t[32];
    std::snprintf(t, sizeof t, "%s%.3g", titles.empty() ? "" : " ", frame.first);
    titles += t;
  }
  const int blocks = static_cast<int>(run.frames.size());
  return "set terminal png size 1000,720\nset output '" + stem + ".png'\nset datafile separator ','\n"
         "set size ratio -1\nset xrange [-10.5:5]\nset yrange [-0.5:12.5]\nset key outside right top\n"
         "set title '" + std::to_string(n) + "-link pendulum (OS formulation): the chain at nine instants'\n"
         "set xlabel 'x (m)'\nset ylabel 'y (m)'\n"
         "set object 1 rect from -10.5,-0.5 to 5,0 fc rgb 'gray80' fs solid noborder behind\n"
         "set object 2 rect from 4,0 to 5,12.5 fc rgb 'gray80' fs solid noborder behind\n"
         "set label 1 'floor y = 0' at -10,-0.25 front\nset label 2 'wall x = 4' at 4.5,6 center rotate by 90 front\n"
         "ts = '" + titles + "'\n"
         "colours = '#9400d3 #009e73 #56b4e9 #e69f00 #c8b400 #0072b2 #e51e10 #8b4513 #ff00ff'\n"
         "plot for [i=0:" + std::to_string(blocks - 1) + "] '" + stem + "_frames.csv' index i using 2:3 with lines lc rgb word(colours, i % 9 + 1) lw 1.5 "
         "title sprintf('t = %s s', word(ts, i+1)), \\\n"
         "     for [i=0:" + std::to_string(blocks - 1) + "] '" + stem + "_frames.csv' index i using 2:3:4 with circles lc rgb word(colours, i % 9 + 1) notitle, \\\n"
         "     '" + stem + ".csv' using 2:3 with lines lc rgb 'black' dt 1 title 'last sphere, OS', \\\n"
         "     '" + stem + ".csv' using 4:5 with lines lc rgb 'red' dt 2 title 'last sphere, NMC/OS'\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double sim_seconds = 1.0;
  std::string out = ".";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) sim_seconds = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--seconds T] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  const double dt = 1e-4;
  const int steps = quick ? 300 : static_cast<int>(std::lround(sim_seconds / dt));
  const int sample = 10;                      // every millisecond
  const int frame = std::max(1, steps / 8);  // nine instants of the chain
  const std::vector<int> links = quick ? std::vector<int>{3, 6} : std::vector<int>{3, 6, 12, 15, 24, 30};
  const bool plot = have_gnuplot();
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) {
    std::fprintf(stderr, "cannot create %s: %s\n", out.c_str(), error.message().c_str());
    return 1;
  }
  const int n_u = 4, n_f = 4;

  std::printf("Jain (n.d.) Table 2 LCP sizes (n_u = %d contacts, n_f = %d) and %d steps of %.1f ms (%.3f s)\n\n", n_u,
              n_f, steps, dt * 1e3, steps * dt);
  std::printf("|  n | LCP OS | LCP NMC/OS | LCP NMC | OS s/sim-s | NMC/OS s/sim-s | speed-up | max LCP OS | max LCP NMC/OS | max |Δ tip| m | energy J: start, largest rise OS / NMC/OS |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  bool ok = true;
  std::string failed;  // the simulations that failed, named for the closing line
  // Table 2 of Jain (n.d.): the speed-ups measured there, for n = 3, 6, 12, 15, 24, 30.
  const std::vector<std::pair<int, double>> jain = {{3, 3.6}, {6, 6.5}, {12, 16.1}, {15, 25.6}, {24, 49.7}, {30, 55.6}};
  std::string speedups;  // n, OS and NMC/OS s per simulated s, speed-up, Table 2's speed-up
  for (const int n : links) {
    const robots::SpherePendulum<double> p(n);
    const int contact_rows = n_u * (n_f + 2), n_b = p.hinge_rows();
    const Run os = simulate(p.os, p.os_geometry, {}, p.os_q, p.os_v, p.radius, steps, sample, frame);
    const Run nmc = simulate(p.nmc, p.nmc_geometry, p.hinges, p.nmc_q, p.nmc_v, p.radius, steps, sample, steps + 1);
    ok = ok && os.ok && nmc.ok;
    if (!os.ok) failed += " n = " + std::to_string(n) + " minimal coordinates (OS);";
    if (!nmc.ok) failed += " n = " + std::to_string(n) + " non-minimal coordinates (NMC/OS);";
    const double simulated = steps * dt;
    double deviation = 0.0;
    const std::size_t samples = std::min(os.path.size(), nmc.path.size());
    for (std::size_t k = 0; k < samples; ++k) deviation = std::max(deviation, (os.path[k] - nmc.path[k]).norm());
    std::printf("| %2d | %d | %d | %d | %.3g | %.3g | %.2f | %d | %d | %.2e | %.1f, %.2g / %.2g |\n", n, contact_rows,
                n_b + contact_rows, p.nmc.nv() + n_b + contact_rows, os.seconds / simulated, nmc.seconds / simulated,
                nmc.seconds / os.seconds, os.max_lcp, nmc.max_lcp, deviation, os.energy0, os.max_gain, nmc.max_gain);

    const std::string stem = out + "/pendulum_contact_n" + std::to_string(n);
    if (FILE* csv = std::fopen((stem + ".csv").c_str(), "w")) {
      std::fprintf(csv, "t,os_x,os_y,nmc_x,nmc_y\n");
      for (std::size_t k = 0; k < samples; ++k)
        std::fprintf(csv, "%.4f,%.9f,%.9f,%.9f,%.9f\n", static_cast<double>(k * sample) * dt, os.path[k].x(),
                     os.path[k].y(), nmc.path[k].x(), nmc.path[k].y());
      std::fclose(csv);
    } else {
      std::fprintf(stderr, "cannot write %s.csv\n", stem.c_str());
      ok = false;
    }
    if (!write_frames(stem + "_frames.csv", os, p.radius)) {
      std::fprintf(stderr, "cannot write %s_frames.csv\n", stem.c_str());
      ok = false;
    }
    double table2 = 0.0;
    for (const auto& [links_paper, speedup] : jain)
      if (links_paper == n) table2 = speedup;
    char row[160];
    std::snprintf(row, sizeof row, "%d,%.6g,%.6g,%.4g,%.4g\n", n, os.seconds / simulated, nmc.seconds / simulated,
                  nmc.seconds / os.seconds, table2);
    speedups += row;
    if (plot && !gnuplot(stem + ".gp", motion_script(stem, n, os))) std::fprintf(stderr, "gnuplot failed for n = %d\n", n);
  }
  const std::string speed_stem = out + "/pendulum_contact_speedup";
  if (FILE* csv = std::fopen((speed_stem + ".csv").c_str(), "w")) {
    std::fprintf(csv, "n,os_s_per_sim_s,nmcos_s_per_sim_s,speedup,jain_table2_speedup\n%s", speedups.c_str());
    std::fclose(csv);
  } else {
    std::fprintf(stderr, "cannot write %s.csv\n", speed_stem.c_str());
    ok = false;
  }
  if (plot && !gnuplot(speed_stem + ".gp",
                       "set terminal png size 800,600\nset output '" + speed_stem + ".png'\n"
                       "set datafile separator ','\nset key top left opaque box\nset grid\n"
                       "set title 'NMC/OS time / OS time against the number of links'\n"
                       "set xlabel 'links n'\nset ylabel 'speed-up'\nset xrange [0:32]\nset yrange [0:*]\n"
                       "plot '" + speed_stem + ".csv' skip 1 using 1:4 with linespoints pt 7 title 'treedyn (Lemke, brute-force detection)', \\\n"
                       "     '' skip 1 using 1:5 with linespoints pt 5 dt 2 title 'Jain (n.d.) Table 2 (PATH, Bullet)'\n"))
    std::fprintf(stderr, "gnuplot failed for the speed-up plot\n");
  std::printf("\nCSV%s in %s (pendulum_contact_n<n>*, pendulum_contact_speedup.*)\n", plot ? " and PNG files" : " files (no gnuplot: no PNG)",
              out.c_str());
  if (!failed.empty()) std::printf("FAILED: a contact step failed in:%s (the step and status are on stderr)\n", failed.c_str());
  else if (!ok) std::printf("FAILED: an output file could not be written (named on stderr)\n");
  return ok ? 0 : 1;
}
