// RBDL 3.3.1 as a peer (peer.hpp), in double (RBDL has no other scalar). Its URDF reader
// (addons/urdfreader, compiled beside it) loads the file; only RBDL's public API is called.
// Conventions converted here (benchmarks/peers/README.md):
//   joints       matched by name: RBDL names each body after its URDF link, and the robots here name each
//                joint after its child link (checked: an unknown name throws)
//   free flyer   RBDL's JointTypeFloatingBase is a TranslationXYZ joint (q = p, q̇ = ṗ in WORLD coordinates)
//                followed by a Spherical one (quaternion x, y, z in its three q entries, w at the end of Q;
//                ω in body coordinates). With R the base's rotation (body → world) and treedyn's [ω; v_O]
//                in body coordinates: q̇_RBDL = T v with ṗ = R v_O, and p̈ = R (a_O + ω × v_O), so
//                q̈_RBDL = T a + c with c = [R (ω × v_O); 0]. T is orthogonal (a permutation with an R block),
//                hence τ = Tᵀ τ_RBDL, H = Tᵀ H_RBDL T, and q̈ = Tᵀ (q̈_RBDL − c).
//   C            treedyn's bias is ID(q, v, 0) in its own coordinates, i.e. RBDL's ID at q̈_RBDL = c; the timed
//                Bias is RBDL's NonlinearEffects (the same work, its own coordinates)
//   H⁻¹          RBDL has no routine for the full H⁻¹: check_minverse returns an empty matrix, which main.cpp
//                takes as "no such kernel" (neither checked nor timed)
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>
#include <rbdl/rbdl.h>
#include <urdfreader.h>

#include "peer.hpp"
#include "rbdl_peer.hpp"

namespace treedyn::peers {
namespace {

namespace R = RigidBodyDynamics;

class RbdlPeer final : public Peer<double> {
 public:
  RbdlPeer(const Robot& robot, const std::vector<JointSlot>& layout) {
    if (!R::Addons::URDFReadFromFile(robot.urdf.c_str(), &model_, robot.floating, false))
      throw std::runtime_error("rbdl peer: " + robot.name + ": its URDF reader refused " + robot.urdf);
    n_ = static_cast<int>(model_.qdot_size);
    for (const JointSlot& slot : layout) {
      if (slot.nq == 7) {
        ff_ = slot;
        for (unsigned int id = 1; id < model_.mBodies.size(); ++id) {
          if (model_.mJoints[id].mJointType == R::JointTypeTranslationXYZ) ff_t_ = model_.mJoints[id].q_index;
          if (model_.mJoints[id].mJointType == R::JointTypeSpherical) {
            ff_s_ = model_.mJoints[id].q_index;
            ff_w_ = model_.multdof3_w_index[id];
          }
        }
        if (ff_t_ < 0 || ff_s_ < 0) throw std::runtime_error("rbdl peer: " + robot.name + ": no floating base");
        continue;
      }
      const unsigned int id = model_.GetBodyId(slot.name.c_str());
      if (id == std::numeric_limits<unsigned int>::max() || slot.nv != 1 || model_.mJoints[id].mDoFCount != 1)
        throw std::runtime_error("rbdl peer: " + robot.name + ": no one-DoF body for treedyn's joint '" + slot.name + "'");
      slots_.push_back({slot.q_offset, slot.v_offset, static_cast<int>(model_.mJoints[id].q_index)});
    }
    if (static_cast<int>(slots_.size()) + (ff_t_ >= 0 ? 6 : 0) != n_)
      throw std::runtime_error("rbdl peer: " + robot.name + ": " + std::to_string(n_) + " DoFs in RBDL, not treedyn's");
    Q_ = R::Math::VectorNd::Zero(model_.q_size);
    H_ = R::Math::MatrixNd::Zero(n_, n_);
    out_ = R::Math::VectorNd::Zero(n_);
  }

  std::string library() const override { return "rbdl"; }
  int nv() const override { return n_; }

  void set_state(const VecX<double>& q, const VecX<double>& v, const VecX<double>& a,
                 const VecX<double>& tau) override {
    T_ = MatX<double>::Zero(n_, n_);
    c_ = VecX<double>::Zero(n_);
    for (const Slot& s : slots_) {
      Q_[s.r] = q[s.q];
      T_(s.r, s.v) = 1.0;
    }
    if (ff_t_ >= 0) {
      const int o = ff_.v_offset, oq = ff_.q_offset;
      const Eigen::Quaterniond quat(q[oq + 6], q[oq + 3], q[oq + 4], q[oq + 5]);
      const Eigen::Matrix3d Rb = quat.normalized().toRotationMatrix();  // body → world
      for (int i = 0; i < 3; ++i) {
        Q_[ff_t_ + i] = q[oq + i];
        Q_[ff_s_ + i] = q[oq + 3 + i];
        T_(ff_s_ + i, o + i) = 1.0;
      }
      Q_[ff_w_] = q[oq + 6];
      T_.block(ff_t_, o + 3, 3, 3) = Rb;
      const Eigen::Vector3d w = v.segment<3>(o), vO = v.segment<3>(o + 3);
      c_.segment<3>(ff_t_) = Rb * w.cross(vO);
    }
    QDot_ = T_ * v;
    QDDot_ = T_ * a + c_;
    Tau_ = T_ * tau;
  }

  VecX<double> check_rnea() override {
    R::InverseDynamics(model_, Q_, QDot_, QDDot_, out_);
    return T_.transpose() * VecX<double>(out_);
  }
  VecX<double> check_bias() override {
    R::Math::VectorNd c = c_;
    R::InverseDynamics(model_, Q_, QDot_, c, out_);
    return T_.transpose() * VecX<double>(out_);
  }
  MatX<double> check_crba() override {
    H_.setZero();
    R::CompositeRigidBodyAlgorithm(model_, Q_, H_, true);
    return T_.transpose() * MatX<double>(H_) * T_;
  }
  VecX<double> check_aba() override {
    R::ForwardDynamics(model_, Q_, QDot_, Tau_, out_);
    return T_.transpose() * (VecX<double>(out_) - c_);
  }
  MatX<double> check_minverse() override { return MatX<double>(); }

  void time_rnea() override { R::InverseDynamics(model_, Q_, QDot_, QDDot_, out_); }
  void time_bias() override { R::NonlinearEffects(model_, Q_, QDot_, out_); }
  void time_crba() override { R::CompositeRigidBodyAlgorithm(model_, Q_, H_, true); }
  void time_aba() override { R::ForwardDynamics(model_, Q_, QDot_, Tau_, out_); }
  void time_minverse() override {}

 private:
  struct Slot {
    int q, v, r;  // treedyn's q and v index, RBDL's (one DoF: the same index in Q and Q̇)
  };

  R::Model model_;
  int n_ = 0;
  std::vector<Slot> slots_;
  JointSlot ff_;
  int ff_t_ = -1, ff_s_ = -1, ff_w_ = -1;  // RBDL's translation and spherical q̇ indices, the w entry of Q
  MatX<double> T_;                         // q̇_RBDL = T v
  VecX<double> c_;                         // q̈_RBDL = T a + c
  R::Math::VectorNd Q_, QDot_, QDDot_, Tau_, out_;
  R::Math::MatrixNd H_;
};

}  // namespace

std::unique_ptr<Peer<double>> make_rbdl_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<RbdlPeer>(robot, layout);
}

}  // namespace treedyn::peers
