// treedyn's dynamics derivatives as a peer (peer_derivatives.hpp), called as its users call them:
//   RNEADerivatives  rnea_derivatives(model, data, ws, q, q̇, q̈): ws.dtau_dq, ws.dtau_dv (and data.tau)
//   ABADerivatives   aba_derivatives(model, data, ws, q, q̇, τ): ws.ddq_dq, ws.ddq_dv, ws.ddq_dtau (and data.qdd)
//   FrameVelocityDerivatives      body_motion(model, data, q, q̇), then per frame
//                                 frame_velocity_derivatives(model, data, body, 1, local, …)
//   FrameAccelerationDerivatives  body_motion(model, data, q, q̇, q̈), then per frame
//                                 frame_acceleration_derivatives(model, data, body, 1, local, …)
//   (one outward pass for all the frames, as Pinocchio's computeForwardKinematicsDerivatives and its getters)
// The model is treedyn_model's (treedyn_peer.hpp); the float model is its cast, as in treedyn_peer.cpp.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "peer_derivatives.hpp"
#include "treedyn_peer.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn::peers {

namespace {

template <class S>
class TreedynDerivatives final : public DerivativesPeer<S> {
 public:
  explicit TreedynDerivatives(Model<S> model) : model_(std::move(model)), data_(model_), rws_(model_), aws_(model_) {}

  std::string library() const override { return "treedyn"; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = q;
    v_ = v;
    a_ = a;
    tau_ = tau;
  }

  MatX<S> check_rnea_derivatives() override {
    ok(rnea_derivatives(model_, data_, rws_, q_, v_, a_), "rnea_derivatives");
    MatX<S> out(model_.nv(), 2 * model_.nv());
    out << rws_.dtau_dq, rws_.dtau_dv;
    return out;
  }
  MatX<S> check_aba_derivatives() override {
    ok(aba_derivatives(model_, data_, aws_, q_, v_, tau_), "aba_derivatives");
    MatX<S> out(model_.nv(), 2 * model_.nv());
    out << aws_.ddq_dq, aws_.ddq_dv;
    return out;
  }

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints) {
      bodies_.push_back(model_.joint_index(name));
      frames_.emplace_back(model_.nv());
    }
  }
  MatX<S> check_frame_derivatives() override {
    time_frame_acceleration_derivatives();
    MatX<S> out(6 * static_cast<Eigen::Index>(frames_.size()), 4 * model_.nv());
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      const FrameOutputs& o = frames_[f];
      ok(o.status, "frame_acceleration_derivatives");
      out.middleRows(6 * static_cast<Eigen::Index>(f), 6) << o.dv_dq, o.da_dq, o.da_dv, o.da_da;
    }
    return out;
  }

  void time_rnea_derivatives() override {
    rnea_derivatives(model_, data_, rws_, q_, v_, a_);
    escape(rws_.dtau_dq.data());
  }
  void time_aba_derivatives() override {
    aba_derivatives(model_, data_, aws_, q_, v_, tau_);
    escape(aws_.ddq_dq.data());
  }
  void time_frame_velocity_derivatives() override {
    body_motion(model_, data_, q_, v_);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      FrameOutputs& o = frames_[f];
      o.status = frame_velocity_derivatives(model_, data_, bodies_[f], Transform<S>::identity(), ReferenceFrame::local,
                                            o.dv_dq, o.dv_dv);
    }
    escape(frames_.data());
  }
  void time_frame_acceleration_derivatives() override {
    body_motion(model_, data_, q_, v_, a_);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      FrameOutputs& o = frames_[f];
      o.status = frame_acceleration_derivatives(model_, data_, bodies_[f], Transform<S>::identity(),
                                                ReferenceFrame::local, o.dv_dq, o.da_dq, o.da_dv, o.da_da);
    }
    escape(frames_.data());
  }

 private:
  static void ok(const Status& status, const char* call) {
    if (!status.ok()) throw std::runtime_error(std::string("treedyn derivatives: ") + call + " failed");
  }

  using Matrix6x = Eigen::Matrix<S, 6, Eigen::Dynamic>;
  struct FrameOutputs {  // one frame's derivatives
    explicit FrameOutputs(int nv)
        : dv_dq(6, nv), dv_dv(6, nv), da_dq(6, nv), da_dv(6, nv), da_da(6, nv) {}
    Matrix6x dv_dq, dv_dv, da_dq, da_dv, da_da;
    Status status;
  };

  Model<S> model_;
  Data<S> data_;
  RneaDerivativesWorkspace<S> rws_;
  AbaDerivativesWorkspace<S> aws_;
  VecX<S> q_, v_, a_, tau_;
  std::vector<int> bodies_;
  std::vector<FrameOutputs> frames_;
};

}  // namespace

std::unique_ptr<DerivativesPeer<double>> make_treedyn_derivatives_double(const Robot& robot) {
  return std::make_unique<TreedynDerivatives<double>>(treedyn_model(robot));
}

std::unique_ptr<DerivativesPeer<float>> make_treedyn_derivatives_float(const Robot& robot) {
  return std::make_unique<TreedynDerivatives<float>>(treedyn_model(robot).cast<float>());
}

}  // namespace treedyn::peers
