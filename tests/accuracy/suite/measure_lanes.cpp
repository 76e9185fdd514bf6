// measure_lanes<T>: the kernels on treedyn::Lanes (docs/lanes.md) against the 50-digit reference, with the
// metrics and bounds of their scalar rows (measure_common.hpp, measure_inverse.cpp): crba, rnea, bias,
// forward_dynamics_crba (with the packed factor_H / solve_H), aba, modified_aba, minverse_aba and frame_jacobian
// (local, world-aligned), and in measure_lanes_derivatives rnea_derivatives, aba_derivatives and the end frame's
// frame_velocity_derivatives and frame_acceleration_derivatives (measure_derivatives.cpp's rows), in
// Lanes<float, 8> ("float-lanes8")
// and Lanes<double, 4> ("double-lanes4"). The case's states fill the lanes in turn (lane j: state j mod count),
// one pack, every lane measured against its state's reference. Compiled once per scalar (TREEDYN_TEST_SCALAR);
// built where <experimental/simd> is (tests/CMakeLists.txt).
#include <array>
#include <string>
#include <type_traits>

#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
#include "treedyn/lanes/lanes.hpp"

namespace treedyn::accuracy {

namespace {

/// Lane j of a matrix of lanes, in long double.
template <class Derived>
MatrixL widen_lane(const Eigen::MatrixBase<Derived>& x, int j) {
  MatrixL out(x.rows(), x.cols());
  for (Eigen::Index c = 0; c < x.cols(); ++c)
    for (Eigen::Index r = 0; r < x.rows(); ++r) out(r, c) = static_cast<long double>(x(r, c).lane(j));
  return out;
}

/// Case c's states in the lanes of one pack (lane j: state j mod count): q, q̇, τ, in Lanes<T, W>.
template <class T, int W>
struct LanePack {
  using L = Lanes<T, W>;
  using LaneVector = Eigen::Matrix<L, Eigen::Dynamic, 1>;
  LaneVector q, qd, tau;
  LanePack(const Case& c, int nq, int nv) : q(nq), qd(nv), tau(nv) {
    for (int j = 0; j < W; ++j) {
      const State& s = state(c, j);
      for (Eigen::Index k = 0; k < q.size(); ++k) q(k).set_lane(j, static_cast<T>(s.q(k)));
      for (Eigen::Index k = 0; k < nv; ++k) {
        qd(k).set_lane(j, static_cast<T>(s.qd(k)));
        tau(k).set_lane(j, static_cast<T>(s.tau(k)));
      }
    }
  }
  static const State& state(const Case& c, int j) { return c.states[static_cast<std::size_t>(j) % c.states.size()]; }
};

template <class T>
constexpr int lane_width = std::is_same<T, float>::value ? 8 : 4;

/// The lane rows' scalar name: "float-lanes8" or "double-lanes4".
template <class T>
std::vector<Measurement> renamed(std::vector<Measurement> out) {
  const std::string scalar =
      std::string(std::is_same<T, float>::value ? "float" : "double") + "-lanes" + std::to_string(lane_width<T>);
  for (Measurement& m : out) m.scalar = scalar;
  return out;
}

}  // namespace

template <class T>
std::vector<Measurement> measure_lanes(const Case& c, const std::vector<Reference>& refs,
                                       const std::vector<FrameReference>& frame_refs) {
  constexpr int W = lane_width<T>;
  using L = Lanes<T, W>;
  using LaneVector = Eigen::Matrix<L, Eigen::Dynamic, 1>;
  const Model<L> model = c.model.template cast<L>();
  Data<L> data(model);
  const int n = model.nv(), tip = model.nbodies() - 1;
  const Transform<L> placement = end_placement().template cast<L>();
  const auto count = static_cast<int>(c.states.size());
  const LanePack<T, W> pack(c, model.nq(), n);
  const LaneVector &q = pack.q, &qd = pack.qd, &tau = pack.tau;
  crba(model, data, q);
  const Eigen::Matrix<L, Eigen::Dynamic, Eigen::Dynamic> H = dense_H(model, data);
  const LaneVector tau_n = rnea(model, data, q, qd, tau);  // at q̈ = the state's τ vector, as the scalar row
  const LaneVector C = bias(model, data, q, qd);
  const LaneVector qdd_crba = forward_dynamics_crba(model, data, q, qd, tau);
  const LaneVector qdd_aba = aba(model, data, q, qd, tau);
  const LaneVector qdd_modified = modified_aba(model, data, q, qd, tau);
  MinverseAbaWorkspace<L> aba_ws(model);
  const Eigen::Matrix<L, Eigen::Dynamic, Eigen::Dynamic> Minv = minverse_aba(model, data, aba_ws, q);
  forward_kinematics(model, data, q);
  const Eigen::Matrix<L, 6, Eigen::Dynamic> J_local = frame_jacobian(model, data, tip, placement, ReferenceFrame::local);
  const Eigen::Matrix<L, 6, Eigen::Dynamic> J_world =
      frame_jacobian(model, data, tip, placement, ReferenceFrame::world_aligned);
  Recorder<T> r{c, {}};
  for (int j = 0; j < W; ++j) {
    const State& s = LanePack<T, W>::state(c, j);
    const Reference& ref = refs[static_cast<std::size_t>(j % count)];
    record_h_tau_c(r, s, ref, widen_lane(H, j), widen_lane(tau_n, j), widen_lane(C, j), n);
    record_jacobians(r, frame_refs[static_cast<std::size_t>(j % count)], widen_lane(J_local, j),
                     widen_lane(J_world, j), n);
    if (!forward_checked<T>(c, n, ref)) continue;
    record_forward(r, "forward_dynamics_crba", s, ref, widen_lane(qdd_crba, j), n);
    record_forward(r, "aba", s, ref, widen_lane(qdd_aba, j), n);
    record_forward(r, "modified_aba", s, ref, widen_lane(qdd_modified, j), n);
    if (solvable<T>(n, ref.kappa_s))  // as measure_inverse.cpp's row
      r.add("minverse_aba", "scaled", scaled_error(widen_lane(Minv, j), ref.Hinv), 16, n, ref.kappa_s);
  }
  return renamed<T>(r.out);
}

template <class T>
std::vector<Measurement> measure_lanes_derivatives(const Case& c, const std::vector<Reference>& refs,
                                                   const std::vector<DerivativeReference>& derivative_refs) {
  constexpr int W = lane_width<T>;
  using L = Lanes<T, W>;
  const Model<L> model = c.model.template cast<L>();
  Data<L> data(model);
  RneaDerivativesWorkspace<L> rws(model);
  AbaDerivativesWorkspace<L> aws(model);
  const int n = model.nv();
  const auto count = static_cast<int>(c.states.size());
  const LanePack<T, W> pack(c, model.nq(), n);
  rnea_derivatives(model, data, rws, pack.q, pack.qd, pack.tau);  // at q̈ = the state's τ vector, as the scalar rows
  aba_derivatives(model, data, aws, pack.q, pack.qd, pack.tau);
  using Frame6 = Eigen::Matrix<L, 6, Eigen::Dynamic>;
  const int tip = model.nbodies() - 1;
  const Transform<L> placement = end_placement().template cast<L>();
  std::array<Frame6, 2> dv_dq, da_dq, da_dv;
  Frame6 dv_dv(6, n), da_da(6, n);
  for (int axes = 0; axes < 2; ++axes) {
    dv_dq[axes].resize(6, n);
    da_dq[axes].resize(6, n);
    da_dv[axes].resize(6, n);
    frame_velocity_derivatives(model, data, tip, placement, pack.q, pack.qd, frame_axes[axes], dv_dq[axes], dv_dv);
    Frame6 unused(6, n);
    frame_acceleration_derivatives(model, data, tip, placement, pack.q, pack.qd, pack.tau, frame_axes[axes], unused,
                                   da_dq[axes], da_dv[axes], da_da);
  }
  Recorder<T> r{c, {}};
  for (int j = 0; j < W; ++j) {
    const Reference& ref = refs[static_cast<std::size_t>(j % count)];
    const DerivativeReference& dref = derivative_refs[static_cast<std::size_t>(j % count)];
    for (int axes = 0; axes < 2; ++axes) {
      const auto row = [&](const char* name, const Frame6& computed, const MatrixL& reference) {
        r.add(std::string(name) + " " + frame_axes_name[axes], "frame derivative",
              frame_derivative_error(widen_lane(computed, j), reference, dref.frame_reach), 16, n);
      };
      row("frame_velocity_derivatives dq", dv_dq[axes], dref.frame_dv_dq[axes]);
      row("frame_acceleration_derivatives dq", da_dq[axes], dref.frame_da_dq[axes]);
      row("frame_acceleration_derivatives dv", da_dv[axes], dref.frame_da_dv[axes]);
    }
    r.add("rnea_derivatives dq", "derivative", derivative_error(widen_lane(rws.dtau_dq, j), dref.dtau_dq, ref.H, false), 16, n);
    r.add("rnea_derivatives dv", "derivative", derivative_error(widen_lane(rws.dtau_dv, j), dref.dtau_dv, ref.H, false), 16, n);
    if (!solvable<T>(n, ref.kappa_s) && !c.beyond_solvable) continue;
    r.add("aba_derivatives dq", "derivative", derivative_error(widen_lane(aws.ddq_dq, j), dref.ddq_dq, ref.H, true), 16, n,
          ref.kappa_s);
    r.add("aba_derivatives dv", "derivative", derivative_error(widen_lane(aws.ddq_dv, j), dref.ddq_dv, ref.H, true), 16, n,
          ref.kappa_s);
  }
  return renamed<T>(r.out);
}

template std::vector<Measurement> measure_lanes<TREEDYN_TEST_SCALAR>(const Case&, const std::vector<Reference>&,
                                                                     const std::vector<FrameReference>&);
template std::vector<Measurement> measure_lanes_derivatives<TREEDYN_TEST_SCALAR>(
    const Case&, const std::vector<Reference>&, const std::vector<DerivativeReference>&);

}  // namespace treedyn::accuracy
