// The accuracy suite's shared part: the models it covers, the 50-digit references, the metrics that catch
// cancellation, and one measurement routine per family of algorithms that runs every algorithm of the family in
// float or double against the reference. The Catch2 tests (test_accuracy.cpp) and examples/accuracy_report
// both consume the measurements, so the two always report the same numbers.
//
// Metrics (A the reference, Â the computed value, D = diag(√H_ii) from the reference H):
//   scaled       max_ij |Â_ij − A_ij| / √(A_ii A_jj): the entrywise error of a symmetric matrix against its
//                own diagonal (H, H⁻¹, the OSCM compliance Λ⁻¹ and its inverse Λ). Cancellation that the large entries of a
//                mass matrix hide in a max-norm relative check shows here.
//   energy       ‖q̈̂ − q̈‖_H / ‖q̈‖_H, the relative error of an acceleration in the kinetic-energy norm.
//   backward     ‖H q̈̂ − r‖ / (‖H‖ ‖q̈̂‖ + ‖r‖), r = τ − C (2-norms, H and r in 50 digits), and its diagonally
//                scaled form, the same quantity for the system (D⁻¹HD⁻¹)(Dq̈) = D⁻¹r, which does not let the
//                heavy joints hide the residual of the light ones.
//   factor       max_ij |(LᵀDL)_ij − H_ij| / √(H_ii H_jj) for the factor of the H handed to the kernel.
//   tau          max_i |τ̂_i − τ_i| / (√H_ii ‖D⁻¹τ‖_∞): the RNEA's torque error in the units of the scaled H.
//   derivative   max_j ‖col_j(Δ')‖₂ / max_j ‖col_j(A')‖₂ of a derivative matrix scaled to A' = D^±1 A D⁻¹: rows
//                by D⁻¹ for ∂τ/∂x (forces), by D for ∂q̈/∂x (accelerations), columns by D⁻¹ (increments of q
//                or q̇). Unit-free, and the light joints' rows and columns weigh as much as the heavy ones';
//                for ∂q̈/∂x it is a forward error (c·n·ε·κ_s: ∂q̈/∂x = −H⁻¹ ∂τ/∂x).
//   frame derivative   a 6 × n derivative of a frame's velocity or acceleration (∂v_F/∂q, ∂a_F/∂q, ∂a_F/∂q̇):
//                max_j ‖col_j(Δ')‖₂ / max_j ‖col_j(A')‖₂ with the angular rows multiplied by the frame's reach L
//                (the largest distance from the frame's origin to a body origin on its path), the linear rows and
//                the columns (per unit joint increment) unscaled: kinematics has no masses, so no D; an angular
//                error weighs as the linear one it makes at distance L, and a half that is zero in exact
//                arithmetic (ω's derivatives on a planar chain) is not divided by itself.
//   jacobian     per column j: ‖Δω_j‖/‖ω_j‖ + ‖Δv_j‖/(‖ω_j‖ d_j + ‖v_j‖), d_j the distance from the frame's
//                origin to joint j's body origin; a linear part formed as a difference of two far-away points
//                shows here.
// Bounds (stated per check by measure_*): c·n·ε for the scaled, backward, factor, tau and jacobian metrics,
// independent of κ; c·n·ε·κ_s for forward errors (energy, and scaled errors of inverses), κ_s = κ₂(D⁻¹HD⁻¹),
// the condition number of the diagonally scaled H. Why κ_s: a backward error |ΔH_ij| ≤ δ√(H_ii H_jj) (what
// Cholesky-type eliminations and the CRBA give) moves H⁻¹ and q̈ in these metrics by at most n·δ·κ_s; the
// diagonal scaling costs nothing, so κ_s charges an algorithm for a badly conditioned model, not for a badly
// scaled one.
// Forward-dynamics and inverse checks apply only while 8·n·ε·κ_s < 1: beyond it the matrix rounded to the
// scalar need not even be positive definite (Ascher, Pai & Cloutier (1996), docs/references.md, Table 2: the CRBM's pivot is 0 in
// float at m1 = 1e8), so there is nothing to bound.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::accuracy {

using MatrixL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using VectorL = Eigen::Matrix<long double, Eigen::Dynamic, 1>;

/// One joint state; every entry is a float, so that the float and the double runs see the same state.
struct State {
  Eigen::VectorXd q, qd, tau;
};

/// A model the suite covers, built in double, with its states. `kind` is "robot", "random" or "ill".
struct Case {
  std::string name, kind;
  Model<double> model;
  std::vector<State> states;
  bool operational = false;  ///< the model has an end frame with a non-singular 6×6 OSCM (J of full row rank)
  bool beyond_solvable = false;  ///< run the forward-dynamics routes even where 8·n·ε·κ_s ≥ 1 (for plots)
};

/// `count` seeded states of `model`: q on the manifold, q̇ and τ in [−1, 1], all rounded to float.
std::vector<State> float_states(const Model<double>& model, int count, unsigned seed);

/// The built-in robots, seeded random trees and the ill-conditioned chains (ill_conditioned_cases).
std::vector<Case> all_cases();
/// Ascher, Pai & Cloutier (1996) Examples 1–3 and the two-link chain with a light link far out
/// (cases.cpp states each setup).
std::vector<Case> ill_conditioned_cases();
/// Example 1's chains of growing κ (Table 1's link-length ratio r, continued to smaller r).
std::vector<Case> kappa_family();
/// A case for a model loaded by the caller (e.g. from URDF).
Case make_case(const std::string& name, const Model<double>& model);

/// The end frame the Jacobian and OSCM checks use: on the last body, a small offset.
Transform<double> end_placement();

/// The 50-digit results for one state, rounded to long double.
struct Reference {
  MatrixL H, Hinv;
  VectorL C, qdd;       ///< C = bias (gravity and velocity terms), q̈ = H⁻¹(τ − C)
  double kappa = 0;     ///< κ₂(H)
  double kappa_s = 0;   ///< κ₂(D⁻¹HD⁻¹)
};
Reference reference_dynamics(const Model<double>& model, const State& s);

/// The end frame's Jacobians (local and world-aligned), each column's distance d_j (see jacobian above), and
/// Λ = J H⁻¹ Jᵀ (local J), all in 50 digits; the drift J̇ q̇ (local and world-aligned) and the classical
/// acceleration [ω̇; p̈] at q̈ = the state's τ (world-aligned), with the scales of the "motion" metric.
struct FrameReference {
  MatrixL J_local, J_world, compliance;
  VectorL distance;
  VectorL drift_local, drift_world, accel_world;
  /// V² and V² + Σ_k t(S_k q̈_k), V = Σ_k t(S_k q̇_k) over the joints k on the frame's path, t(m) = ‖^F X_k m‖ +
  /// ‖m_ω‖ d_max (d_max the largest distance from the frame to a path body): the size of the terms the drift
  /// and the acceleration are sums of, so a cancellation among them is charged to the algorithm.
  long double drift_scale = 1, accel_scale = 1;
};
FrameReference reference_frame(const Model<double>& model, const State& s);

/// The 50-digit centre of mass, its Jacobian and the centroidal momentum matrix (ccrba), each with the scale
/// its metric divides by (the "position" and "column" metrics below).
struct CentroidalReference {
  VectorL com;           ///< c (3)
  MatrixL Jcom, Ag;      ///< J_c (3 × n), A_g (6 × n, angular rows first)
  long double com_scale = 1;  ///< ‖c‖ + max_i ‖o_i − c‖: c's size plus the robot's
  VectorL jcom_scale;    ///< per DoF j of body i: (m_s(i) ‖s_v‖ + ‖s_ω‖ ‖h_s(i)‖) / M
  VectorL moment_scale;  ///< per DoF: ‖Ī_c(i)‖_F ‖s_ω‖ + ‖h_s(i)‖ ‖s_v‖ + M·jcom_scale ‖c − o_i‖ (A_g's angular rows)
  // at the state's q̇, with b_j = ‖I_j‖_F (1 + ‖v_j‖) (1 + ‖o_j − c‖)², body j's inertia moved to c times its
  // velocity (the size of the terms the rates sum):
  MatrixL dAg;           ///< Ȧ_g (6 × n), centroidal_map_time_variation
  VectorL dAg_scale;     ///< per DoF of body i: Σ_{j in subtree(i)} b_j (‖s_ω‖ + ‖s_v‖)
  VectorL drift;         ///< Ȧ_g q̇ (6), centroidal_drift
  long double drift_scale = 1;  ///< Σ_j b_j (1 + ‖v_j‖)
  MatrixL C;             ///< the Coriolis matrix C(q, q̇) (n × n), coriolis_matrix
  long double C_scale = 1;      ///< Σ_j b_j
};
CentroidalReference reference_centroidal(const Model<double>& model, const State& s);

/// The 50-digit derivatives of the dynamics (central differences, reference_derivatives.cpp): ∂τ/∂q, ∂τ/∂q̇ of
/// τ = rnea(q, q̇, q̈) at q̈ = the state's τ vector, and ∂q̈/∂q, ∂q̈/∂q̇ of q̈ = aba(q, q̇, τ); tangent increments.
/// The end frame's (end_placement on the last body) ∂v_F/∂q, ∂a_F/∂q and ∂a_F/∂q̇ of frame_velocity and
/// frame_acceleration (q̈ = the state's τ vector, no gravity), each 6 × n, indexed by frame_axes.
struct DerivativeReference {
  MatrixL dtau_dq, dtau_dv, ddq_dq, ddq_dv;
  MatrixL frame_dv_dq[2], frame_da_dq[2], frame_da_dv[2];
  long double frame_reach = 1;  ///< L of the frame derivative metric
};
/// The axes of DerivativeReference's frame derivatives: [0] local, [1] world-aligned (as the Jacobian rows).
constexpr ReferenceFrame frame_axes[2] = {ReferenceFrame::local, ReferenceFrame::world_aligned};
constexpr const char* frame_axes_name[2] = {"local", "world"};
DerivativeReference reference_derivatives(const Model<double>& model, const State& s);

// ---- metrics (long double) ----
double scaled_error(const MatrixL& computed, const MatrixL& reference);
double energy_error(const VectorL& computed, const VectorL& reference, const MatrixL& H);
double backward_error(const MatrixL& H, const VectorL& x, const VectorL& r);
double scaled_backward_error(const MatrixL& H, const VectorL& x, const VectorL& r);
double tau_error(const VectorL& computed, const VectorL& reference, const MatrixL& H);
double jacobian_error(const MatrixL& computed, const MatrixL& reference, const VectorL& distance);
/// The derivative metric above; `acceleration`: rows scaled by D (∂q̈/∂x), else by D⁻¹ (∂τ/∂x).
double derivative_error(const MatrixL& computed, const MatrixL& reference, const MatrixL& H, bool acceleration);
/// The "frame derivative" metric above of a 6 × n derivative of a frame's motion; `reach`: the frame's L.
double frame_derivative_error(const MatrixL& computed, const MatrixL& reference, long double reach);
/// κ₂ of the diagonally scaled D⁻¹AD⁻¹, D = diag(√A_ii) (computed in double).
double scaled_condition(const MatrixL& A);

/// One algorithm's error on one case, in units of the scalar's ε, and its bound c·n(·κ_s).
struct Measurement {
  std::string model, kind, algorithm, metric, scalar;
  double error = 0;   ///< in units of ε of `scalar`
  double c = 0;       ///< the bound's constant
  int n = 0;          ///< the bound's size factor (nv, or the rows of Λ)
  double kappa = 1;   ///< the bound's κ factor (1 for κ-free bounds)
  [[nodiscard]] double bound() const { return c * n * kappa; }
  [[nodiscard]] double ratio() const { return error / bound(); }
};

/// crba, rnea, bias, ltl, ltdl, forward_dynamics_crba, aba, modified_aba.
template <class T>
std::vector<Measurement> measure_dynamics(const Case& c, const std::vector<Reference>& refs);
/// minverse_ltdl, minverse_aba, minverse_schur, minverse_apply_schur, minverse_apply_fixman.
template <class T>
std::vector<Measurement> measure_inverse(const Case& c, const std::vector<Reference>& refs);
/// frame_jacobian (local, world-aligned), frame_jacobian_drift (local, world-aligned) and
/// frame_classical_acceleration (world-aligned) ("motion": ‖Δ‖ / FrameReference's scale), oscm, oscm_faithful, oscm_dense, osim, oscm_schur, osim_schur.
template <class T>
std::vector<Measurement> measure_operational(const Case& c, const std::vector<Reference>& refs,
                                             const std::vector<FrameReference>& frame_refs);

/// center_of_mass ("position": ‖Δc‖ / com_scale), jacobian_center_of_mass and ccrba ("column": the largest
/// ‖Δ column‖ over its scale, CentroidalReference; A_g's angular and linear halves each over its own).
template <class T>
std::vector<Measurement> measure_centroidal(const Case& c, const std::vector<CentroidalReference>& refs);

/// rnea_derivatives (∂τ/∂q, ∂τ/∂q̇) and aba_derivatives (∂q̈/∂q, ∂q̈/∂q̇; forward errors, while solvable), the
/// "derivative" metric; frame_velocity_derivatives (∂v_F/∂q) and frame_acceleration_derivatives (∂a_F/∂q,
/// ∂a_F/∂q̇) of the end frame, local and world-aligned, the "frame derivative" metric (c·n·ε, no κ).
template <class T>
std::vector<Measurement> measure_derivatives(const Case& c, const std::vector<Reference>& refs,
                                             const std::vector<DerivativeReference>& derivative_refs);

/// The kernels on treedyn::Lanes (crba, rnea, bias, forward_dynamics_crba, aba, frame_jacobian local and world) with
/// their scalar rows' metrics and bounds, scalar "float-lanes8" (T = float) or "double-lanes4" (T = double).
/// Built where <experimental/simd> is (TREEDYN_ACCURACY_LANES).
template <class T>
std::vector<Measurement> measure_lanes(const Case& c, const std::vector<Reference>& refs,
                                       const std::vector<FrameReference>& frame_refs);

/// Everything for one case in float and double: the references once, then every family in both scalars.
std::vector<Measurement> measure_all(const Case& c);

}  // namespace treedyn::accuracy
