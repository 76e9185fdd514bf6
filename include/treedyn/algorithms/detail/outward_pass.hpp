// treedyn::detail outward-pass steps shared by the tree algorithms: joint transforms, world placements,
// body velocities, and the external-force default.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, §4 and Table 5.1 (the outward pass of the
// RNEA), on which the CRBA, the articulated-body methods, the mass-matrix inverses and the OSCM kernels
// all start. Indexing: paper body i ↔ code i−1; "λ(i) = 0" ↔ "parent == no_parent".
// Implementation note (MotionHalves): each body's step works on the 3-vector halves (angular, linear) of
// a motion, kept in registers, and stores each half once. Whole 6-vector Eigen arithmetic on values just
// written half by half reloads them as SIMD packets that straddle two earlier stores, which x86 cannot
// forward (a store-forwarding stall); the halves form does the same operations in the same order without
// the stall (docs/design-notes.md#rnea-works-on-3-vector-halves). noexcept; nothing here allocates.
#pragma once

#include <type_traits>

#include "treedyn/algorithms/detail/joint_block.hpp"
#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/cross.hpp"

namespace treedyn::detail {

/// No external forces: the default f_ext of rnea, bias and the forward-dynamics routes.
template <class Scalar>
struct NoExternalForces {
  Force<Scalar> operator[](int) const noexcept { return Force<Scalar>::Zero(); }
};

/// The checks every algorithm makes at entry: `data` was built for `model`, q has nq entries.
template <class Scalar, int N, class Dq>
bool model_data_q_ok(const char* function, const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                     const Eigen::MatrixBase<Dq>& q) noexcept {
  return same_model(function, "data", data.model_id, model.id()) && size_ok(function, "q", q, model.nq(), "model.nq()");
}

/// A per-DoF argument (q̇, q̈, τ) has nv entries.
template <class Scalar, int N, class Dv>
bool dof_vector_ok(const char* function, const char* argument, const Model<Scalar, N>& model,
                   const Eigen::MatrixBase<Dv>& v) noexcept {
  return size_ok(function, argument, v, model.nv(), "model.nv()");
}

/// External forces have one entry per body when the container knows its size (NoExternalForces does not).
template <class Scalar, int N, class Fext>
bool external_forces_ok(const char* function, const Model<Scalar, N>& model, const Fext& f_ext) noexcept {
  if constexpr (std::is_same<Fext, NoExternalForces<Scalar>>::value) {
    static_cast<void>(function);
    static_cast<void>(model);
    static_cast<void>(f_ext);
    return true;
  } else {
    return size_ok(function, "f_ext", f_ext, model.nbodies(), "model.nbodies()");
  }
}

/// The entry checks of the forward-dynamics routes: data, q, q̇, τ and f_ext fit the model.
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext>
bool forward_dynamics_arguments_ok(const char* function, const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                                   const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                   const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext) noexcept {
  return model_data_q_ok(function, model, data, q) && dof_vector_ok(function, "qd", model, qd) &&
         dof_vector_ok(function, "tau", model, tau) && external_forces_ok(function, model, f_ext);
}

/// f_ext is finite: false, with data.config_status = non_finite_input naming "f_ext" and the BODY, when a
/// force holds a NaN or an infinity (NoExternalForces: nothing to check). detail/check.hpp.
template <class Scalar, int N, class Fext>
bool external_forces_finite(const char* call, Data<Scalar, N>& data, const Fext& f_ext) noexcept {
  if constexpr (std::is_same<Fext, NoExternalForces<Scalar>>::value) {
    static_cast<void>(call);
    static_cast<void>(data);
    static_cast<void>(f_ext);
    return true;
  } else {
    return forces_finite_ok<Scalar>(call, "f_ext", f_ext, data.config_status);
  }
}

/// q̇ and f_ext are finite (the inputs of an outward velocity pass); else data.config_status names the first
/// bad one (non_finite_input) and false is returned: the caller fails as for an invalid configuration.
template <class Scalar, int N, class Dv, class Fext>
bool velocity_inputs_finite(const char* call, Data<Scalar, N>& data, const Eigen::MatrixBase<Dv>& qd,
                            const Fext& f_ext) noexcept {
  return finite_ok(call, "qd", qd, data.config_status) && external_forces_finite(call, data, f_ext);
}

/// data.Xup[i] for a joint of several coordinates; false, with data.config_status naming body i, when its
/// quaternion is zero or not finite. Out of line: the loop over 1-DoF joints stays as small as it was.
template <class Scalar, int N, class Dq>
TREEDYN_NOINLINE bool multi_dof_joint_transform(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                const Eigen::MatrixBase<Dq>& q, int i, const char* call) noexcept {
  const Joint<Scalar>& joint = model.joint(i);
  const auto qi = q.segment(model.q_offset(i), joint.nq());
  if (!joint.configuration_ok(qi)) {  // a NaN quaternion is a non-finite input, named as such
    if (finite_ok(call, "q", q, data.config_status)) data.config_status = FactorStatus::invalid_configuration(i, call);
    return false;
  }
  data.Xup[i] = joint.transform(qi) * model.tree_transform(i);
  return true;
}

/// Whether joint_transforms checks q for a NaN or an infinity before it starts (the default), or leaves it
/// to its caller, which then checks its output (finite_inputs_after: rnea and bias, whose outputs every
/// non-finite input reaches).
enum class CheckQ { first, by_caller };

/// ^i X_λ(i) = XJ(q_i) · X_T(i) for every body into data.Xup (the outward kinematics every algorithm starts
/// with). A q holding a NaN or an infinity stops it first: data.config_status = non_finite_input naming
/// "q" and the coordinate (detail::finite_ok; CheckQ::by_caller skips that reduction, and a NaN then reaches
/// Xup, except in a quaternion, which is still named as a non-finite q). A spherical or free-flyer
/// quaternion that is zero stops it: data.config_status names the body. Either way false is returned (the
/// caller sets its outputs to NaN). A nonzero quaternion is normalised on use (joint.hpp). On success
/// data.config_status is success.
template <CheckQ check = CheckQ::first, class Scalar, int N, class Dq>
bool joint_transforms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const char* call) noexcept {
  if constexpr (check == CheckQ::first) {
    if (!finite_ok(call, "q", q, data.config_status)) return false;
  }
  for (int i = 0; i < model.nbodies(); ++i) {
    const JointPlacement<Scalar>& placement = model.joint_placement(i);
    if (placement.is_one_dof()) {
      data.Xup[i] = placement.transform(q(model.q_offset(i)));  // XJ(q_i) X_T(i), folded
    } else if (!multi_dof_joint_transform(model, data, q, i, call)) {
      return false;
    }
  }
  data.config_status = FactorStatus::success();
  return true;
}

/// A transform of NaN entries: the placement a failed call writes.
template <class Scalar>
Transform<Scalar> nan_transform() noexcept {
  const Scalar x = nan<Scalar>();
  return Transform<Scalar>{Matrix3<Scalar>::Constant(x), Vector3<Scalar>::Constant(x)};
}

/// Sets an output to NaN (a failed call) and returns it.
template <class Out>
const Out& fill_nan(Out& out) noexcept {
  out.setConstant(nan<typename Out::Scalar>());
  return out;
}

/// True when q, q̇, f_ext and `last` (q̈ for rnea, τ for aba; nullptr: none) are all finite; otherwise
/// false, with data.config_status = non_finite_input naming the first that is not, in that order (the order
/// the checks before a pass use). Out of line: the failure path of the checks made after a pass.
template <class Scalar, int N, class Dq, class Dv, class Da, class Fext>
TREEDYN_CHECK_COLD bool name_non_finite_input(const char* call, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                                              const Eigen::MatrixBase<Dv>& qd, const Fext& f_ext,
                                              const Eigen::MatrixBase<Da>* last, const char* last_name) noexcept {
  return finite_ok(call, "q", q, data.config_status) && velocity_inputs_finite(call, data, qd, f_ext) &&
         (last == nullptr || finite_ok(call, last_name, *last, data.config_status));
}

/// The finite-input check of rnea and bias, made after their pass instead of before it: the pass has no
/// branch on values and a non-finite input reaches some entry of its output through a product or a sum (a NaN
/// or an infinity in q reaches Xup through sin/cos or the joint's translation, and NaN·0 is NaN), so one
/// reduction over the output (n entries) replaces three over the inputs (nq + 2 nv). When the output is
/// not finite, data.config_status names the first input that is not (q, q̇, q̈, f_ext, as the checks
/// before a pass would) and the output is set to NaN (docs/errors.md#finite-inputs).
template <class Scalar, int N, class Dq, class Dv, class Da, class Fext, class Out>
const Out& finite_inputs_after(const char* call, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>* qdd, const Fext& f_ext,
                               Out& out) noexcept {
  nan_whole_failed_lanes(out);  // over lanes: a failing state is NaN throughout (docs/lanes.md)
  if (TREEDYN_CHECK_LIKELY(all_finite(out)) || name_non_finite_input(call, data, q, qd, f_ext, qdd, "qdd"))
    return out;  // every input finite: an overflow of the pass itself is left as computed
  return fill_nan(out);
}

/// ^i X_0 = ^i X_λ(i) · ^λ(i) X_0 (^0 X_0 = 1) into data.X_world, from data.Xup as joint_transforms left it.
template <class Scalar, int N>
void world_placements(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    data.X_world[i] = (p == no_parent) ? data.Xup[i] : data.Xup[i] * data.X_world[p];
  }
}

/// A motion vector held as its two 3-vector halves (angular ω, linear v), kept in registers.
template <class Scalar>
struct MotionHalves {
  Vector3<Scalar> w, v;
  [[nodiscard]] Motion<Scalar> motion() const noexcept {
    Motion<Scalar> m;
    m << w, v;
    return m;
  }
};

/// S_i x_i for body i's n_i entries of x starting at vi, as halves (1-DoF: a scaled axis).
template <class Scalar, class Dx>
EIGEN_ALWAYS_INLINE MotionHalves<Scalar> subspace_times(const MotionSubspace<Scalar>& S, const Eigen::MatrixBase<Dx>& x, int vi) noexcept {
  if (S.cols() == 1) return {S.col(0).template head<3>() * x(vi), S.col(0).template tail<3>() * x(vi)};
  const Motion<Scalar> m = S * x.segment(vi, S.cols());
  return {m.template head<3>(), m.template tail<3>()};
}
template <class Scalar, class Dx>
EIGEN_ALWAYS_INLINE MotionHalves<Scalar> subspace_times(GeneralJoint, const MotionSubspace<Scalar>& S,
                                                        const Eigen::MatrixBase<Dx>& x, int vi) noexcept {
  return subspace_times(S, x, vi);
}
/// The same for a free joint (S_i = 1₆, joint_block.hpp): x_i's six entries themselves.
template <class Scalar, class Dx>
EIGEN_ALWAYS_INLINE MotionHalves<Scalar> subspace_times(FreeJoint, const MotionSubspace<Scalar>&,
                                                        const Eigen::MatrixBase<Dx>& x, int vi) noexcept {
  return {x.template segment<3>(vi), x.template segment<3>(vi + 3)};
}

/// Body velocity and joint velocity of one body, as halves.
template <class Scalar>
struct BodyVelocity {
  MotionHalves<Scalar> v;   ///< v_i
  MotionHalves<Scalar> vJ;  ///< S_i q̇_i
};

/// v_i = X_i v_λ(i) + S_i q̇_i for body i (data.Xup[i] already set), written half by half into data.v[i].
/// Returns v_i and vJ = S_i q̇_i. Shared by the outward passes of the RNEA and the articulated-body methods;
/// `kind` (joint_block.hpp) is body i's joint kind when the caller dispatched on it.
template <class Scalar, int N, class Dv, class Kind = GeneralJoint>
EIGEN_ALWAYS_INLINE BodyVelocity<Scalar> body_velocity(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                       const Eigen::MatrixBase<Dv>& qd, int i, Kind kind = Kind{}) noexcept {
  const MotionHalves<Scalar> vJ = subspace_times(kind, model.motion_subspaces()[i], qd, model.v_offset(i));  // vJ = S_i q̇_i
  Vector3<Scalar> w = vJ.w, vl = vJ.v;
  const int p = model.parent(i);
  if (p != no_parent) {                                                          // + X_i v_λ(i)
    const Transform<Scalar>& X = data.Xup[i];
    const Vector3<Scalar> wp = data.v[p].template head<3>(), vp = data.v[p].template tail<3>();
    w += rotate<false>(X.E, wp);
    vl += rotate<false>(X.E, Vector3<Scalar>(vp - cross(X.r, wp)));
  }
  data.v[i].template head<3>() = w;
  data.v[i].template tail<3>() = vl;
  return {{w, vl}, vJ};
}

}  // namespace treedyn::detail
