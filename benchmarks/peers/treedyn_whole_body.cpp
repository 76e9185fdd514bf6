// treedyn's whole-body kernels as a peer (peer_whole_body.hpp), called as its users call them:
//   CCRBA                 ccrba(model, data, q, q̇): data.Ag (angular rows first), data.hg, data.Ig and the com
//   JacobianCoM           jacobian_center_of_mass(model, data, q): data.Jcom and the subtrees' centres of mass
//   ForwardKinematics     forward_kinematics(model, data, q): data.X_world
//   FramePlacements       forward_kinematics, then frame_placements(model, data): every frame's data.X_frame
//   JacobianTimeVariation body_motion(model, data, q, q̇) (the body velocities), then per frame
//                         frame_jacobian_time_variation(..., ReferenceFrame::local): J and J̇ of the frame at the
//                         body's origin, in its own axes
// The model is treedyn_model's (treedyn_peer.hpp); the float model is its cast, as in treedyn_peer.cpp.
#include <stdexcept>
#include <utility>

#include "peer_whole_body.hpp"
#include "treedyn_peer.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/algorithms/frame_placements.hpp"
#include "treedyn/algorithms/jacobian_center_of_mass.hpp"
#include "treedyn/urdf/build_model.hpp"

namespace treedyn::peers {

namespace {

template <class S>
class TreedynWholeBody final : public WholeBodyPeer<S> {
 public:
  explicit TreedynWholeBody(Model<S> model) : model_(std::move(model)), data_(model_) {}

  std::string library() const override { return "treedyn"; }
  int nframes() const override { return static_cast<int>(model_.frames().size()); }

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints) {
      int body = -1;
      for (int i = 0; i < model_.nbodies(); ++i)
        if (model_.joint_name(i) == name) body = i;
      if (body < 0) throw std::runtime_error("treedyn whole body: no joint '" + name + "'");
      bodies_.push_back(body);
      jdot_.emplace_back(model_);
    }
  }

  void set_state(const VecX<S>& q, const VecX<S>& v) override {
    q_ = q;
    v_ = v;
  }

  MatX<S> check_ccrba() override {
    ok(ccrba(model_, data_, q_, v_), "ccrba");
    return data_.Ag;
  }
  MatX<S> check_jcom() override {
    ok(jacobian_center_of_mass(model_, data_, q_), "jacobian_center_of_mass");
    return data_.Jcom;
  }
  MatX<S> check_placements(bool frames) override {
    if (frames)
      time_frame_placements();
    else
      time_forward_kinematics();
    MatX<S> out(12, model_.nbodies());
    for (int i = 0; i < model_.nbodies(); ++i) {
      const Matrix3<S> axes = data_.X_world[i].E.transpose();
      out.col(i) << Eigen::Map<const VecX<S>>(axes.data(), 9), data_.X_world[i].r;
    }
    return out;
  }
  MatX<S> check_jdot() override {
    ok(body_motion(model_, data_, q_, v_), "body_motion");
    time_jdot();
    MatX<S> out(6 * static_cast<Eigen::Index>(jdot_.size()), model_.nv());
    for (std::size_t f = 0; f < jdot_.size(); ++f) out.middleRows(6 * static_cast<Eigen::Index>(f), 6) = jdot_[f].dJ;
    return out;
  }

  void time_ccrba() override {
    ccrba(model_, data_, q_, v_);
    escape(data_.Ag.data());
  }
  void time_jcom() override {
    jacobian_center_of_mass(model_, data_, q_);
    escape(data_.Jcom.data());
  }
  void time_forward_kinematics() override { escape(forward_kinematics(model_, data_, q_).data()); }
  void time_frame_placements() override {
    forward_kinematics(model_, data_, q_);
    escape(frame_placements(model_, data_).data());
  }
  void time_jdot() override {
    body_motion(model_, data_, q_, v_);
    for (std::size_t f = 0; f < jdot_.size(); ++f)
      escape(frame_jacobian_time_variation(model_, data_, jdot_[f], bodies_[f], Transform<S>::identity(),
                                           ReferenceFrame::local)
                 .data());
  }

 private:
  static void ok(const Status& status, const char* call) {
    if (!status.ok()) throw std::runtime_error(std::string("treedyn whole body: ") + call + " failed");
  }

  Model<S> model_;
  Data<S> data_;
  std::vector<int> bodies_;
  std::vector<FrameJacobianTimeVariation<S>> jdot_;
  VecX<S> q_, v_;
};

}  // namespace

std::unique_ptr<WholeBodyPeer<double>> make_treedyn_whole_body_double(const Robot& robot) {
  return std::make_unique<TreedynWholeBody<double>>(treedyn_model(robot));
}

std::unique_ptr<WholeBodyPeer<float>> make_treedyn_whole_body_float(const Robot& robot) {
  return std::make_unique<TreedynWholeBody<float>>(treedyn_model(robot).cast<float>());
}

}  // namespace treedyn::peers
