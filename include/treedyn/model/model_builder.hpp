// treedyn ModelBuilder: collects the bodies of a kinematic tree, validates each as it is added and builds
// the immutable Model of model.hpp, merging bodies on fixed joints (docs/notation.md; the expanded per-DoF
// parent array μ of Featherstone (2005) §2 / Fig. 2, see docs/references.md).
//
// ModelBuilder validates every body as it is added and throws std::invalid_argument naming the body
// and the rule broken: parent not yet defined, non-finite or non-orthonormal tree transform, zero or
// non-finite joint axis or pitch, negative or non-finite mass, a first moment without mass, rotational
// inertia about the centre of mass not positive semidefinite or breaking the triangle inequality,
// duplicate name (set_physical_inertia_check(false) keeps only the checks for finite numbers, mass ≥ 0 and
// no first moment without mass). Massless bodies are legal (URDF chains use them); a singular H is then
// reported by the factorization status. Bodies on fixed joints are merged into their parent's inertia by build(),
// so they cost nothing at run time; each stays reachable as a named frame (frame(name)).
// Include treedyn/model/model.hpp, which includes this header: build() needs Model complete where it is called.
// Building allocates; nothing else here does.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "treedyn/fwd.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/model/frame.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

template <class Scalar, int N>
class Model;  // model.hpp (which gives N its default, Dynamic)

namespace detail {
/// The source of Model::id(): 0 is the default-constructed (empty) model, built models count from 1.
inline std::atomic<std::uint64_t> model_id_counter{0};
}  // namespace detail

/// Collects bodies, validates each as it is added, and builds an immutable Model.
template <class Scalar>
class ModelBuilder {
 public:
  /// Adds a body hanging from `parent` (an index returned earlier, or no_parent for the base) through
  /// `joint`, placed by the tree transform X_T = ^predecessor X_parent, with rigid-body inertia `inertia`
  /// in its own frame. Returns the body's index in the builder (fixed bodies are merged by build()).
  /// Throws std::invalid_argument naming the body and the rule broken.
  int add_body(int parent, const Joint<Scalar>& joint, const Transform<Scalar>& X_tree,
               const RigidInertia<Scalar>& inertia, std::string name = {}) {
    const int index = static_cast<int>(bodies_.size());
    if (name.empty()) name = "body" + std::to_string(index);
    const std::string who = "treedyn::ModelBuilder: body " + std::to_string(index) + " ('" + name + "'): ";
    if (parent < no_parent || parent >= index)
      throw std::invalid_argument(who + "parent " + std::to_string(parent) +
                                  " is not yet defined (it must be -1 for the base or an index below " +
                                  std::to_string(index) + ")");
    if (body_names_.count(name) != 0) throw std::invalid_argument(who + "duplicate name");
    Body body{parent, joint, X_tree, inertia, std::move(name), {}, {}, Transform<Scalar>::identity()};
    validate_joint(body.joint, who);
    validate_transform(X_tree, who);
    validate_inertia(inertia, who, physical_inertia_check_);
    body_names_.insert(body.name);
    bodies_.push_back(std::move(body));
    return index;
  }

  /// Names the joint of body `body` (default: the body's name). Throws std::invalid_argument for an
  /// unknown body or an empty name; build() rejects two joints with one name.
  void set_joint_name(int body, std::string joint_name) {
    const std::string who = who_is(body, "set_joint_name");
    if (joint_name.empty()) throw std::invalid_argument(who + "empty joint name");
    bodies_[static_cast<std::size_t>(body)].joint_name = std::move(joint_name);
  }

  /// Sets the limits of body `body`'s joint (metadata). Throws std::invalid_argument naming the body when a
  /// limit is NaN, lower > upper, or the velocity or effort limit is negative.
  void set_joint_limits(int body, const JointLimits<Scalar>& limits) {
    using std::isnan;
    const std::string who = who_is(body, "set_joint_limits");
    if (isnan(limits.lower) || isnan(limits.upper) || isnan(limits.velocity) || isnan(limits.effort))
      throw std::invalid_argument(who + "a joint limit is NaN");
    if (limits.lower > limits.upper) throw std::invalid_argument(who + "lower position limit above the upper one");
    if (limits.velocity < Scalar(0) || limits.effort < Scalar(0))
      throw std::invalid_argument(who + "negative velocity or effort limit");
    bodies_[static_cast<std::size_t>(body)].limits = limits;
  }

  /// Places the named frame of body `body` at ^frame X_body = `placement` instead of at the body's origin
  /// (e.g. a URDF link frame when the body frame was rotated to give a joint its canonical axis).
  void set_frame_placement(int body, const Transform<Scalar>& placement) {
    const std::string who = who_is(body, "set_frame_placement");
    validate_transform(placement, who);
    bodies_[static_cast<std::size_t>(body)].frame_placement = placement;
  }

  /// Gravity as a vector in base coordinates (default (0, 0, −9.81)); applied as a base acceleration −g.
  void set_gravity(const Vector3<Scalar>& g) {
    if (!g.allFinite()) throw std::invalid_argument("treedyn::ModelBuilder: gravity is not finite");
    gravity_ = g;
  }

  /// Whether add_body rejects a rotational inertia about the centre of mass that is not positive
  /// semidefinite or breaks the triangle inequality (default: true). Off, such numbers are kept as they are
  /// (finite numbers, mass ≥ 0 and no first moment without mass are still required): every algorithm still
  /// runs on them, and a pivot that is not > 0 is reported by the factorization or ABA status.
  void set_physical_inertia_check(bool on) noexcept { physical_inertia_check_ = on; }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(bodies_.size()); }

  /// Builds the model, merging bodies on fixed joints into their parents. With a fixed N the model's
  /// number of DoFs must equal N (std::invalid_argument otherwise).
  template <int N = Dynamic>
  [[nodiscard]] Model<Scalar, N> build() const {
    if (N != Dynamic) {
      int total = 0;
      for (const Body& b : bodies_) total += b.joint.nv();
      if (total != N)
        throw std::invalid_argument("treedyn::ModelBuilder::build<" + std::to_string(N) + ">: the model has " +
                                    std::to_string(total) + " degrees of freedom");
    }
    {  // joint names are unique (body names are checked by add_body)
      std::map<std::string, std::size_t> joint_owner;
      for (std::size_t b = 0; b < bodies_.size(); ++b) {
        const auto inserted = joint_owner.emplace(effective_joint_name(bodies_[b]), b);
        if (!inserted.second)
          throw std::invalid_argument("treedyn::ModelBuilder: bodies '" + bodies_[inserted.first->second].name + "' and '" +
                                      bodies_[b].name + "' have joints with one name, '" + inserted.first->first + "'");
      }
    }
    Model<Scalar, N> model;
    model.gravity_ = gravity_;
    std::vector<int> target(bodies_.size(), no_parent);            // model body each builder body maps to
    std::vector<Transform<Scalar>> to_target(bodies_.size());       // ^b X_target(b)
    int nq = 0, nv = 0, count = 0;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const Body& body = bodies_[b];
      const int p = body.parent;
      const int p_target = (p == no_parent) ? no_parent : target[static_cast<std::size_t>(p)];
      // ^predecessor X_target(parent): the tree transform continued through merged fixed bodies
      const Transform<Scalar> X_tree =
          (p == no_parent) ? body.X_tree : body.X_tree * to_target[static_cast<std::size_t>(p)];
      if (body.joint.type == JointType::fixed) {
        target[b] = p_target;
        to_target[b] = X_tree;
        if (p_target != no_parent)
          model.inertia_[p_target] += apply_transpose_inertia(X_tree, body.inertia);
        model.frames_.push_back(Frame<Scalar>{body.name, p_target, body.frame_placement * X_tree});
        continue;
      }
      target[b] = count++;
      to_target[b] = Transform<Scalar>::identity();
      model.parent_.push_back(p_target);
      model.joint_.push_back(body.joint);
      model.S_.push_back(body.joint.motion_subspace());
      model.X_tree_.push_back(X_tree);
      model.placement_.push_back(JointPlacement<Scalar>::make(body.joint, X_tree));
      model.inertia_.push_back(body.inertia);
      model.q_offset_.push_back(nq);
      model.v_offset_.push_back(nv);
      model.names_.push_back(body.name);
      model.joint_names_.push_back(effective_joint_name(body));
      model.limits_.push_back(body.limits);
      model.frames_.push_back(Frame<Scalar>{body.name, target[b], body.frame_placement});
      nq += body.joint.nq();
      nv += body.joint.nv();
    }
    model.nq_ = nq;
    model.nv_ = nv;
    model.id_ = detail::model_id_counter.fetch_add(1, std::memory_order_relaxed) + 1;
    std::vector<int> lambda(model.parent_.begin(), model.parent_.end()), dofs;
    for (const Joint<Scalar>& j : model.joint_) dofs.push_back(j.nv());
    const std::vector<int> mu = expand_parent_array(lambda, dofs);
    for (const int i : treedyn::inward_order(lambda)) model.inward_order_.push_back(i);
    model.dof_parent_.assign(nv);
    model.dof_body_.assign(nv);
    for (int k = 0; k < nv; ++k) model.dof_parent_[k] = mu[static_cast<std::size_t>(k)];
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < model.joint_[i].nv(); ++k) model.dof_body_[model.v_offset_[i] + k] = i;
    model.h_pattern_ = AncestorPattern(mu);
    return model;
  }

 private:
  struct Body {
    int parent;
    Joint<Scalar> joint;
    Transform<Scalar> X_tree;
    RigidInertia<Scalar> inertia;
    std::string name;
    std::string joint_name = {};                                           ///< empty: the body's name
    JointLimits<Scalar> limits = {};
    Transform<Scalar> frame_placement = Transform<Scalar>::identity();     ///< ^frame X_body
  };

  static const std::string& effective_joint_name(const Body& b) noexcept {
    return b.joint_name.empty() ? b.name : b.joint_name;
  }

  /// The message prefix naming body `body` for a setter; throws when there is no such body.
  std::string who_is(int body, const char* what) const {
    if (body < 0 || body >= size())
      throw std::invalid_argument(std::string("treedyn::ModelBuilder::") + what + ": no body " + std::to_string(body));
    return "treedyn::ModelBuilder: body " + std::to_string(body) + " ('" + bodies_[static_cast<std::size_t>(body)].name +
           "'): ";
  }

  static Scalar tolerance(const Scalar& scale) {
    using std::abs;
    return Scalar(64) * std::numeric_limits<Scalar>::epsilon() * (abs(scale) + Scalar(1));
  }

  static void validate_joint(Joint<Scalar>& joint, const std::string& who) {
    using std::isfinite;
    if (!joint.axis.allFinite()) throw std::invalid_argument(who + "joint axis is not finite");
    if (joint.type == JointType::revolute || joint.type == JointType::prismatic || joint.type == JointType::helical) {
      const Scalar norm = joint.axis.norm();
      if (!(norm > std::numeric_limits<Scalar>::epsilon()))
        throw std::invalid_argument(who + "joint axis is zero");
      joint.axis /= norm;
    }
    if (!isfinite(joint.pitch)) throw std::invalid_argument(who + "helical pitch is not finite");
  }

  static void validate_transform(const Transform<Scalar>& X, const std::string& who) {
    if (!X.E.allFinite() || !X.r.allFinite()) throw std::invalid_argument(who + "tree transform is not finite");
    const Scalar err = (X.E * X.E.transpose() - Matrix3<Scalar>::Identity()).cwiseAbs().maxCoeff();
    if (err > Scalar(1000) * std::numeric_limits<Scalar>::epsilon() || X.E.determinant() < Scalar(0))
      throw std::invalid_argument(who + "tree transform rotation is not orthonormal with determinant +1");
  }

  static void validate_inertia(const RigidInertia<Scalar>& I, const std::string& who, bool physical) {
    using std::isfinite;
    if (!isfinite(I.m) || !I.h.allFinite() || !I.I.matrix().allFinite())
      throw std::invalid_argument(who + "inertia is not finite");
    if (I.m < Scalar(0)) throw std::invalid_argument(who + "negative mass");
    const Matrix3<Scalar> Io = I.I.matrix();
    Matrix3<Scalar> Ic = Io;  // about the centre of mass: Ī_C = Ī_O + h× h× / m
    if (I.m > Scalar(0)) {
      const Matrix3<Scalar> hx = skew(I.h);
      Ic += hx * hx / I.m;
    } else if (I.h.norm() > tolerance(Scalar(0))) {
      throw std::invalid_argument(who + "a massless body cannot have a first moment of mass h");
    }
    if (!physical) return;
    const Vector3<Scalar> moments = Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>>(Ic, Eigen::EigenvaluesOnly).eigenvalues();
    const Scalar tol = tolerance(Io.trace());
    if (moments(0) < -tol)
      throw std::invalid_argument(who + "rotational inertia about the centre of mass is not positive semidefinite");
    if (moments(0) + moments(1) < moments(2) - tol)
      throw std::invalid_argument(who + "principal moments of inertia break the triangle inequality");
  }

  std::vector<Body> bodies_;
  std::unordered_set<std::string> body_names_;  // the names in bodies_: add_body's duplicate check in O(1)
  Vector3<Scalar> gravity_ = Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(-9.81));
  bool physical_inertia_check_ = true;
};

}  // namespace treedyn
