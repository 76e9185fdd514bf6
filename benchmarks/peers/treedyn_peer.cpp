// treedyn as a peer (peer.hpp): the model from treedyn's own URDF loader, its kernels as its users call
// them. The float model is the double one rounded (Model::cast), as Pinocchio's float model is.
#include <stdexcept>
#include <utility>

#include "peer.hpp"
#include "peer_extra.hpp"
#include "treedyn_peer.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/urdf/build_model.hpp"

namespace treedyn::peers {

Model<double> treedyn_model(const Robot& robot) {
  urdf::Options options;
  options.floating_base = robot.floating;
  options.inertia = urdf::InertiaPolicy::strict;  // the robots are valid: load them exactly as written
  return urdf::load<double>(robot.urdf, options).model;
}

namespace {

template <class S>
class TreedynPeer final : public Peer<S> {
 public:
  explicit TreedynPeer(Model<S> model) : model_(std::move(model)), data_(model_), ws_(model_) {}

  std::string library() const override { return "treedyn"; }
  int nv() const override { return model_.nv(); }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = q;
    v_ = v;
    a_ = a;
    tau_ = tau;
  }

  VecX<S> check_rnea() override { return rnea(model_, data_, q_, v_, a_); }
  VecX<S> check_bias() override { return bias(model_, data_, q_, v_); }
  MatX<S> check_crba() override {
    crba(model_, data_, q_);
    return dense_H(model_, data_);
  }
  VecX<S> check_aba() override { return aba(model_, data_, q_, v_, tau_); }
  MatX<S> check_minverse() override {
    const MatX<S> Minv = minverse_aba(model_, data_, ws_, q_);
    if (!ws_.status.ok()) throw std::runtime_error("treedyn peer: minverse_aba reported a failed pivot");
    return Minv;
  }

  void time_rnea() override { escape(rnea(model_, data_, q_, v_, a_).data()); }
  void time_bias() override { escape(bias(model_, data_, q_, v_).data()); }
  void time_crba() override { escape(crba(model_, data_, q_).data()); }
  void time_aba() override { escape(aba(model_, data_, q_, v_, tau_).data()); }
  void time_minverse() override { escape(minverse_aba(model_, data_, ws_, q_).data()); }

 private:
  Model<S> model_;
  Data<S> data_;
  MinverseAbaWorkspace<S> ws_;
  VecX<S> q_, v_, a_, tau_;
};

// The extra kernels (peer_extra.hpp): factor_H / solve_H on a Data of their own (crba and factor_H run once in
// set_state, so no other kernel's call can disturb the factor time_solve uses), modified_aba, and oscm on
// frames at the named bodies' origins (OperationalFrames::add with the identity placement, all 6 rows).
template <class S>
class TreedynExtra final : public ExtraPeer<S> {
 public:
  explicit TreedynExtra(Model<S> model) : model_(std::move(model)), data_(model_), factored_(model_), frames_(model_) {}

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints)
      for (int i = 0; i < model_.nbodies(); ++i)
        if (model_.joint_name(i) == name) frames_.add(i, Transform<S>::identity(), FrameRows::all(), name);
  }

  std::string library() const override { return "treedyn"; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& tau, const VecX<S>& b) override {
    q_ = q;
    v_ = v;
    tau_ = tau;
    b_ = b;
    x_ = b;
    crba(model_, factored_, q_);
    if (!factor_H(model_, factored_).ok()) throw std::runtime_error("treedyn peer: factor_H failed");
  }

  VecX<S> check_solve() override {
    x_ = b_;
    if (!solve_H(model_, factored_, x_).ok()) throw std::runtime_error("treedyn peer: solve_H failed");
    return x_;
  }
  MatX<S> check_oscm() override {
    const MatX<S> L = oscm(model_, data_, frames_, q_);
    if (!frames_.status.ok()) throw std::runtime_error("treedyn peer: oscm failed");
    return L;
  }
  VecX<S> check_modified_aba() override {
    const VecX<S> qdd = modified_aba(model_, data_, q_, v_, tau_);
    if (!data_.aba_status.ok()) throw std::runtime_error("treedyn peer: modified_aba failed");
    return qdd;
  }

  void time_factor() override {
    factor_H(model_, factored_);
    escape(&factored_);
  }
  void time_solve() override {
    x_ = b_;
    solve_H(model_, factored_, x_);
    escape(x_.data());
  }
  void time_modified_aba() override { escape(modified_aba(model_, data_, q_, v_, tau_).data()); }
  void time_oscm() override { escape(oscm(model_, data_, frames_, q_).data()); }

 private:
  Model<S> model_;
  Data<S> data_, factored_;
  OperationalFrames<S> frames_;
  VecX<S> q_, v_, tau_, b_, x_;
};

}  // namespace

std::vector<JointSlot> treedyn_layout(const Robot& robot) {
  const Model<double> model = treedyn_model(robot);
  std::vector<JointSlot> out;
  for (int i = 0; i < model.nbodies(); ++i)
    out.push_back({model.joint_name(i), model.joint(i).nq(), model.joint(i).nv(), model.q_offset(i), model.v_offset(i)});
  return out;
}

std::vector<std::string> tip_joints(const Robot& robot) {
  const Model<double> model = treedyn_model(robot);
  std::vector<int> children(static_cast<std::size_t>(model.nbodies()), 0);
  for (int i = 0; i < model.nbodies(); ++i)
    if (model.parent(i) != no_parent) ++children[static_cast<std::size_t>(model.parent(i))];
  std::vector<std::string> out;
  for (int i = 0; i < model.nbodies(); ++i)
    if (children[static_cast<std::size_t>(i)] == 0) out.push_back(model.joint_name(i));
  return out;
}

std::unique_ptr<Peer<double>> make_treedyn_double(const Robot& robot) {
  return std::make_unique<TreedynPeer<double>>(treedyn_model(robot));
}

std::unique_ptr<Peer<float>> make_treedyn_float(const Robot& robot) {
  return std::make_unique<TreedynPeer<float>>(treedyn_model(robot).cast<float>());
}

std::unique_ptr<ExtraPeer<double>> make_treedyn_extra_double(const Robot& robot) {
  return std::make_unique<TreedynExtra<double>>(treedyn_model(robot));
}

std::unique_ptr<ExtraPeer<float>> make_treedyn_extra_float(const Robot& robot) {
  return std::make_unique<TreedynExtra<float>>(treedyn_model(robot).cast<float>());
}

}  // namespace treedyn::peers
