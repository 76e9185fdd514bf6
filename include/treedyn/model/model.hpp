// treedyn Model and ModelBuilder: the immutable description of a kinematic tree, validated when built.
//
// Reference: docs/notation.md (regular numbering, per-joint velocity blocks, the expanded per-DoF
// parent array μ of Featherstone (2005) §2 / Fig. 2, see docs/references.md).
//
// A body i (0-based) hangs from parent(i) < i (no_parent = the fixed base) through joint(i). Its frame
// is placed by ^i X_λ(i) = XJ(q_i) · X_T(i), where X_T(i) = tree_transform(i) maps the parent frame to
// the joint's predecessor frame. inertia(i) is the body's rigid-body inertia in its own frame.
// q_offset(i) / v_offset(i) index joint i's block in q (nq_i entries) and in v, q̈, τ (nv_i entries).
//
// Identity: build() gives each model a new id() (a process-wide counter); copies, with_gravity and cast
// keep it, since they have the same bodies, joints and sizes. Data and every workspace remember the id of
// the model they were built for, and every algorithm checks it (one integer compare, detail/check.hpp).
// Name lookups (body_index, joint_index, frame) are setup calls: an unknown name throws
// std::invalid_argument naming it; find_body / find_joint / find_frame probe without throwing. Every
// accessor taking a body index checks it through TREEDYN_CHECK (detail/check.hpp).
// Metadata (read by no algorithm): each moving body's joint has a name (joint_name(i), joint_index(name);
// by default the body's name) and position / velocity / effort limits (limits(i); unbounded by default),
// set with ModelBuilder::set_joint_name / set_joint_limits and kept through merging and cast<>().
// Parts: frame.hpp (Frame, JointLimits), model_builder.hpp (ModelBuilder), both included here.
// Building allocates; nothing else here does.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/detail/storage.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/model/frame.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model_builder.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

template <class Scalar, int N = Dynamic>
class Model {
 public:
  Model() = default;

  [[nodiscard]] int nbodies() const noexcept { return parent_.size(); }
  [[nodiscard]] int nq() const noexcept { return nq_; }
  [[nodiscard]] int nv() const noexcept { return nv_; }
  /// The identity of this model's structure: new for each build(), kept by copies, with_gravity and cast.
  [[nodiscard]] std::uint64_t id() const noexcept { return id_; }

  [[nodiscard]] int parent(int i) const noexcept { return parent_[i]; }
  [[nodiscard]] const Joint<Scalar>& joint(int i) const noexcept { return joint_[i]; }
  /// Joint i folded with its tree transform, for the fast ^i X_λ(i) of 1-DoF joints (joint.hpp).
  [[nodiscard]] const JointPlacement<Scalar>& joint_placement(int i) const noexcept { return placement_[i]; }
  /// Every S_i, indexed by body without a check: for loops over 0 ≤ i < nbodies() (the algorithms' own).
  [[nodiscard]] const detail::Array<MotionSubspace<Scalar>, N>& motion_subspaces() const noexcept { return S_; }
  /// S_i, joint i's constant motion subspace in body-i coordinates (6 × nv_i), computed once at build; i is
  /// checked (detail/check.hpp).
  [[nodiscard]] const MotionSubspace<Scalar>& motion_subspace(int i) const noexcept {
    if (!detail::index_ok("Model::motion_subspace", "i", i, nbodies(), "a body index below nbodies()"))
      return fallback<MotionSubspace<Scalar>>();
    return S_[i];
  }
  [[nodiscard]] const Transform<Scalar>& tree_transform(int i) const noexcept { return X_tree_[i]; }
  [[nodiscard]] const RigidInertia<Scalar>& inertia(int i) const noexcept { return inertia_[i]; }
  [[nodiscard]] int q_offset(int i) const noexcept { return q_offset_[i]; }
  [[nodiscard]] int v_offset(int i) const noexcept { return v_offset_[i]; }
  [[nodiscard]] const std::string& name(int i) const noexcept {
    if (!detail::index_ok("Model::name", "i", i, nbodies(), "a body index below nbodies()"))
      return fallback<std::string>();
    return names_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] const Vector3<Scalar>& gravity() const noexcept { return gravity_; }
  /// The same model with gravity `g` (base coordinates; applied as a base acceleration −g), e.g. for a
  /// robot read from a file. Throws std::invalid_argument when g is not finite.
  [[nodiscard]] Model with_gravity(const Vector3<Scalar>& g) const {
    if (!g.allFinite()) throw std::invalid_argument("treedyn::Model::with_gravity: gravity is not finite");
    Model out = *this;
    out.gravity_ = g;
    return out;
  }

  /// Body parent array λ (one entry per body).
  [[nodiscard]] const detail::Array<int, N>& parents() const noexcept { return parent_; }
  /// The bodies in the order of the inward (tips-to-base) passes: by decreasing depth, ties by decreasing
  /// index (topology/parent_array.hpp, inward_order). Children come before their parent and reach it in the
  /// same order as in the sweep i = nbodies()−1, …, 0, so every sum is the same to the bit; consecutive
  /// bodies on different branches let the processor overlap their steps.
  [[nodiscard]] const detail::Array<int, N>& inward_order() const noexcept { return inward_order_; }
  /// Expanded per-DoF parent array μ (docs/notation.md): the pattern of H and of its LTDL factor.
  [[nodiscard]] const detail::Array<int, N>& dof_parents() const noexcept { return dof_parent_; }
  /// Body owning each DoF.
  [[nodiscard]] int dof_body(int k) const noexcept { return dof_body_[k]; }
  /// Packed ancestor-row layout of H (kernels/ltdl_packed.hpp), built once with the model.
  [[nodiscard]] const AncestorPattern& h_pattern() const noexcept { return h_pattern_; }

  /// Index of the (moving) body called `body_name`, or nothing.
  [[nodiscard]] std::optional<int> find_body(const std::string& body_name) const noexcept {
    return find_name(names_, body_name);
  }
  /// Index of the body called `body_name`; throws std::invalid_argument naming it when there is none.
  [[nodiscard]] int body_index(const std::string& body_name) const {
    return found(find_body(body_name), "body_index", "body", body_name);
  }
  /// Name of joint i, the joint that moves body i (by default the body's name).
  [[nodiscard]] const std::string& joint_name(int i) const noexcept {
    if (!detail::index_ok("Model::joint_name", "i", i, nbodies(), "a joint index below nbodies()"))
      return fallback<std::string>();
    return joint_names_[static_cast<std::size_t>(i)];
  }
  /// Index of the joint called `joint_name_` (= the index of the body it moves), or nothing. A fixed joint
  /// was merged away and has no index.
  [[nodiscard]] std::optional<int> find_joint(const std::string& joint_name_) const noexcept {
    return find_name(joint_names_, joint_name_);
  }
  /// Index of the joint called `joint_name_`; throws std::invalid_argument naming it when there is none.
  [[nodiscard]] int joint_index(const std::string& joint_name_) const {
    return found(find_joint(joint_name_), "joint_index", "joint", joint_name_);
  }
  /// Limits of joint i (metadata; unbounded unless the builder set them).
  [[nodiscard]] const JointLimits<Scalar>& limits(int i) const noexcept {
    if (!detail::index_ok("Model::limits", "i", i, nbodies(), "a joint index below nbodies()"))
      return fallback<JointLimits<Scalar>>();
    return limits_[static_cast<std::size_t>(i)];
  }
  /// Named frames: every merged fixed body, plus one per moving body at its own origin (or at the
  /// placement given by ModelBuilder::set_frame_placement).
  [[nodiscard]] const std::vector<Frame<Scalar>>& frames() const noexcept { return frames_; }
  /// The frame called `frame_name`, or null.
  [[nodiscard]] const Frame<Scalar>* find_frame(const std::string& frame_name) const noexcept {
    for (const Frame<Scalar>& f : frames_)
      if (f.name == frame_name) return &f;
    return nullptr;
  }
  /// The frame called `frame_name`; throws std::invalid_argument naming it when there is none.
  [[nodiscard]] const Frame<Scalar>& frame(const std::string& frame_name) const {
    if (const Frame<Scalar>* f = find_frame(frame_name)) return *f;
    throw not_found("frame", "frame", frame_name);
  }

  /// The same robot in another scalar type: a float run starts from exactly the
  /// model of the double run, rounded once. When NewScalar is wider (double → long double), rotations are
  /// re-orthonormalised and joint axes re-normalised in NewScalar, so that they are exact to the new
  /// precision (see cast_transform); a symbolic NewScalar (detail/scalar.hpp) takes the numbers as they
  /// are. M changes the compile-time size too (e.g. cast<double, 30>() of a dynamic model);
  /// std::invalid_argument if a fixed M differs from nv().
  template <class NewScalar, int M = N>
  [[nodiscard]] Model<NewScalar, M> cast() const {
    if (M != Dynamic && nv_ != M)
      throw std::invalid_argument("treedyn::Model::cast: the model has " + std::to_string(nv_) +
                                  " degrees of freedom, not " + std::to_string(M));
    Model<NewScalar, M> out;
    copy_array(parent_, out.parent_);
    copy_array(inward_order_, out.inward_order_);
    copy_array(dof_parent_, out.dof_parent_);
    copy_array(dof_body_, out.dof_body_);
    copy_array(q_offset_, out.q_offset_);
    copy_array(v_offset_, out.v_offset_);
    out.nq_ = nq_;
    out.nv_ = nv_;
    out.id_ = id_;
    out.names_ = names_;
    out.joint_names_ = joint_names_;
    for (const JointLimits<Scalar>& l : limits_) out.limits_.push_back(l.template cast<NewScalar>());
    out.h_pattern_ = h_pattern_;
    out.gravity_ = gravity_.template cast<NewScalar>();
    out.joint_.assign(nbodies(), Joint<NewScalar>{});
    out.S_.assign(nbodies(), MotionSubspace<NewScalar>::Zero(6, 1));
    out.X_tree_.assign(nbodies(), Transform<NewScalar>::identity());
    out.inertia_.assign(nbodies(), RigidInertia<NewScalar>::zero());
    for (int i = 0; i < nbodies(); ++i) {
      out.joint_[i] = joint_[i].template cast<NewScalar>();
      if constexpr (widening<NewScalar>()) out.joint_[i].axis.normalize();
      out.S_[i] = out.joint_[i].motion_subspace();
      out.X_tree_[i] = cast_transform<NewScalar>(X_tree_[i]);
      // Appended as ModelBuilder does, not assigned over a filler: a default JointPlacement leaves its Eigen
      // members uninitialised, and copying one into every slot copied indeterminate values.
      out.placement_.push_back(JointPlacement<NewScalar>::make(out.joint_[i], out.X_tree_[i]));
      out.inertia_[i] = inertia_[i].template cast<NewScalar>();
    }
    for (const Frame<Scalar>& f : frames_)
      out.frames_.push_back(Frame<NewScalar>{f.name, f.body, cast_transform<NewScalar>(f.placement)});
    return out;
  }

 private:
  template <class S, int M>
  friend class Model;

  /// True when NewScalar carries more digits than Scalar (e.g. double → long double or a 50-digit type).
  /// Never for a symbolic scalar (detail/scalar.hpp): it holds the old numbers exactly, and the
  /// re-normalisation's comparisons could not be evaluated on it. A compile-time constant: the
  /// re-orthonormalisation is not even instantiated when it is false.
  template <class NewScalar>
  static constexpr bool widening() noexcept {
    return detail::is_numeric<NewScalar>::value && detail::is_numeric<Scalar>::value &&
           std::numeric_limits<NewScalar>::digits > std::numeric_limits<Scalar>::digits;
  }

  /// A transform in NewScalar. When widening, the rotation is re-orthonormalised in NewScalar (two
  /// Newton–Schulz steps E ← E (3·1 − EᵀE) / 2: an error ε in EᵀE becomes O(ε²) per step), so that Eᵀ is
  /// E⁻¹ to the new precision, as the algorithms assume (the CRBA maps motion subspaces with Eᵀ). The
  /// robot moves by O(ε of the old scalar), the rounding it already carried.
  template <class NewScalar>
  static Transform<NewScalar> cast_transform(const Transform<Scalar>& X) {
    Transform<NewScalar> out = X.template cast<NewScalar>();
    if constexpr (widening<NewScalar>()) {
      for (int step = 0; step < 2; ++step) {
        const Matrix3<NewScalar> EtE = out.E.transpose() * out.E;
        out.E = out.E * (NewScalar(1.5) * Matrix3<NewScalar>::Identity() - NewScalar(0.5) * EtE);
      }
    }
    return out;
  }

  static std::optional<int> find_name(const std::vector<std::string>& names, const std::string& name) noexcept {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return std::nullopt;
  }
  static std::invalid_argument not_found(const char* call, const char* what, const std::string& name) {
    return std::invalid_argument(std::string("treedyn::Model::") + call + ": no " + what + " called '" + name + "'");
  }
  static int found(const std::optional<int>& index, const char* call, const char* what, const std::string& name) {
    if (!index) throw not_found(call, what, name);
    return *index;
  }
  /// What an accessor returns for an index out of range when a check handler returned (detail/check.hpp).
  template <class T>
  static const T& fallback() noexcept {
    static const T value{};
    return value;
  }

  template <class From, class To>
  static void copy_array(const From& from, To& to) {
    to.assign(from.size());
    for (int i = 0; i < from.size(); ++i) to[i] = from[i];
  }
  friend class ModelBuilder<Scalar>;

  detail::Array<int, N> parent_, inward_order_, dof_parent_, dof_body_, q_offset_, v_offset_;
  detail::Array<Joint<Scalar>, N> joint_;
  detail::Array<MotionSubspace<Scalar>, N> S_;
  detail::Array<JointPlacement<Scalar>, N> placement_;
  detail::Array<Transform<Scalar>, N> X_tree_;
  detail::Array<RigidInertia<Scalar>, N> inertia_;
  int nq_ = 0;
  int nv_ = 0;
  std::uint64_t id_ = 0;
  std::vector<std::string> names_;
  std::vector<std::string> joint_names_;
  std::vector<JointLimits<Scalar>> limits_;
  std::vector<Frame<Scalar>> frames_;
  AncestorPattern h_pattern_;
  Vector3<Scalar> gravity_ = Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(-9.81));
};

}  // namespace treedyn
