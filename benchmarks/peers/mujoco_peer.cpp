// MuJoCo 2.2.2 (Debian's libmujoco) as a peer (peer.hpp, peer_extra.hpp), in double (MuJoCo's mjtNum).
// Only MuJoCo's public C API is called; nothing of it is copied into treedyn.
//
// Loading. MuJoCo's own URDF import is not used: it would pass the URDF's full inertia matrices to MuJoCo's
// `fullinertia` route, which 2.2.2 diagonalises with an inexact Jacobi solver (~1e-7 relative error in H,
// the peers' README), and it fuses fixed bodies. Instead the URDF is read with urdfdom (the parser treedyn's
// and Pinocchio's loaders use) and written out as MJCF, one body per link, in principal form:
//   body       pos = the joint origin's xyz, quat = its rotation (urdfdom's quaternion of the rpy), w first
//   joint      revolute and continuous → hinge, prismatic → slide, both at the body origin with the URDF axis,
//              limited="false", no damping, armature or friction (URDF <limit>/<dynamics> are not written);
//              fixed → no joint (the body is welded to its parent, as in the other libraries); a massless
//              leaf on a fixed joint (arm7's flange) is left out (MuJoCo rejects massless bodies; it has
//              no dynamics)
//   inertial   mass; pos = the inertial origin; the URDF inertia I (in the inertial origin's rotation R) is
//              diagonalised here in double (Eigen's SelfAdjointEigenSolver, I = V Λ Vᵀ, det V = +1) and
//              written as quat = R V, diaginertia = Λ, printed with 17 digits
//   base       a fixed base: the root link is the world (its children go into <worldbody>); a floating base:
//              the root link gets a <freejoint name="root_joint"/>
//   options    gravity (0, 0, −9.81) as treedyn's and Pinocchio's; contacts and constraints disabled (there
//              are no geoms, limits or equalities anyway), so mj_forward's q̈ is the unconstrained one
// Coordinates (converted once in set_state and in the check_* calls, never timed):
//   hinge/slide  one number in qpos and qvel, matched by URDF joint name
//   free joint   qpos = (p, quaternion w, x, y, z): treedyn's (p, x, y, z, w) reordered; qvel = [ṗ in WORLD
//                coordinates; ω in BODY coordinates] (MuJoCo's free-joint dofs: three world-axis slides at
//                the body origin, then three body-axis rotations). As for RBDL (rbdl_peer.cpp), with R the
//                base's rotation (body → world) and treedyn's [ω; v_O] in body coordinates: q̇_mj = T v,
//                ṗ = R v_O, q̈_mj = T a + c with c = [R (ω × v_O); 0]; T is orthogonal, so τ = Tᵀ τ_mj,
//                H = Tᵀ H_mj T, q̈ = Tᵀ (q̈_mj − c), H⁻¹ b = Tᵀ H_mj⁻¹ T b
//   C            qfrc_bias is MuJoCo's ID at q̈_mj = 0; treedyn's C is ID at a = 0, i.e. at q̈_mj = c, so
//                C = Tᵀ (qfrc_bias + H_mj c)
//   H            qM (MuJoCo's sparse storage, exact) expanded by mj_fullM
// Timed kernels (each includes the position- and velocity-dependent stages its treedyn counterpart does):
//   RNEA  mj_kinematics, mj_comPos, mj_comVel, mj_rne(flg_acc = 1)     (M q̈ + C at the qacc set)
//   Bias  mj_kinematics, mj_comPos, mj_comVel, mj_rne(flg_acc = 0)     (qfrc_bias)
//   CRBA  mj_kinematics, mj_comPos, mj_crb                              (qM)
//   ABA   mj_forward: MuJoCo's forward dynamics (CRBA + sparse LTDL + RNE, its only route; not an ABA)
//   Factor mj_factorM (qLD of the current qM);  Solve  mj_solveM of one vector
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <mujoco/mujoco.h>
#include <urdf_parser/urdf_parser.h>

#include "mujoco_peer.hpp"

namespace treedyn::peers {
namespace {

std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string quat_wxyz(const Eigen::Quaterniond& q) {
  return num(q.w()) + " " + num(q.x()) + " " + num(q.y()) + " " + num(q.z());
}

void write_body(const urdf::ModelInterface& m, const urdf::LinkConstSharedPtr& link, std::ostream& out, bool free) {
  const urdf::JointConstSharedPtr& j = link->parent_joint;
  const bool massless = !link->inertial || link->inertial->mass <= 0;
  if (j && j->type == urdf::Joint::FIXED && massless && link->child_links.empty()) return;  // e.g. a flange
  out << "<body name=\"" << link->name << "\"";
  if (j) {
    const urdf::Pose& o = j->parent_to_joint_origin_transform;
    double x, y, z, w;
    o.rotation.getQuaternion(x, y, z, w);
    out << " pos=\"" << num(o.position.x) << " " << num(o.position.y) << " " << num(o.position.z) << "\" quat=\""
        << quat_wxyz(Eigen::Quaterniond(w, x, y, z)) << "\"";
  }
  out << ">\n";
  if (free) out << "<freejoint name=\"root_joint\"/>\n";
  if (j && j->type != urdf::Joint::FIXED) {
    const char* type = nullptr;
    if (j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::CONTINUOUS) type = "hinge";
    if (j->type == urdf::Joint::PRISMATIC) type = "slide";
    if (!type) throw std::runtime_error("mujoco peer: joint '" + j->name + "': a type the MJCF writer does not handle");
    out << "<joint name=\"" << j->name << "\" type=\"" << type << "\" pos=\"0 0 0\" axis=\"" << num(j->axis.x) << " "
        << num(j->axis.y) << " " << num(j->axis.z) << "\" limited=\"false\"/>\n";
  }
  if (massless) {
    if (!link->child_links.empty() || (j && j->type != urdf::Joint::FIXED) || free)
      throw std::runtime_error("mujoco peer: link '" + link->name + "' is massless (MuJoCo rejects it)");
  } else {
    const urdf::Inertial& in = *link->inertial;
    double x, y, z, w;
    in.origin.rotation.getQuaternion(x, y, z, w);
    const Eigen::Matrix3d R = Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
    Eigen::Matrix3d I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(I);
    Eigen::Matrix3d V = eig.eigenvectors();
    if (V.determinant() < 0) V.col(2) = -V.col(2);
    const Eigen::Vector3d L = eig.eigenvalues();
    out << "<inertial pos=\"" << num(in.origin.position.x) << " " << num(in.origin.position.y) << " "
        << num(in.origin.position.z) << "\" quat=\"" << quat_wxyz(Eigen::Quaterniond(R * V)) << "\" mass=\""
        << num(in.mass) << "\" diaginertia=\"" << num(L(0)) << " " << num(L(1)) << " " << num(L(2)) << "\"/>\n";
  }
  for (const urdf::LinkSharedPtr& child : link->child_links) write_body(m, child, out, false);
  out << "</body>\n";
}

/// The URDF as MJCF (the conversions at the top of this file), written next to the other temporary files.
std::string write_mjcf(const Robot& robot) {
  const urdf::ModelInterfaceSharedPtr m = urdf::parseURDFFile(robot.urdf);
  if (!m) throw std::runtime_error("mujoco peer: urdfdom cannot parse " + robot.urdf);
  std::ostringstream out;
  out << "<mujoco model=\"" << m->getName() << "\">\n<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "<option gravity=\"0 0 -9.81\"><flag contact=\"disable\" constraint=\"disable\"/></option>\n<worldbody>\n";
  const urdf::LinkConstSharedPtr root = m->getRoot();
  if (robot.floating) {
    write_body(*m, root, out, true);
  } else {
    for (const urdf::LinkSharedPtr& child : root->child_links) write_body(*m, child, out, false);
  }
  out << "</worldbody>\n</mujoco>\n";
  const std::string file =
      (std::filesystem::temp_directory_path() / ("treedyn_peers_" + robot.name + ".mjcf.xml")).string();
  std::ofstream(file) << out.str();
  return file;
}

/// The model and its data, and the map between treedyn's coordinates and MuJoCo's.
class MujocoState {
 public:
  MujocoState(const Robot& robot, const std::vector<JointSlot>& layout) {
    const std::string file = write_mjcf(robot);
    char error[1000] = "";
    m_ = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    if (!m_) throw std::runtime_error("mujoco peer: " + robot.name + ": mj_loadXML(" + file + "): " + error);
    d_ = mj_makeData(m_);
    n_ = m_->nv;
    int covered = 0;
    for (const JointSlot& slot : layout) {
      const int id = mj_name2id(m_, mjOBJ_JOINT, slot.nq == 7 ? "root_joint" : slot.name.c_str());
      const int want = slot.nq == 7 ? mjJNT_FREE : -1;
      if (id < 0 || (want >= 0 && m_->jnt_type[id] != want) ||
          (want < 0 && m_->jnt_type[id] != mjJNT_HINGE && m_->jnt_type[id] != mjJNT_SLIDE))
        throw std::runtime_error("mujoco peer: " + robot.name + ": no joint for treedyn's '" + slot.name + "'");
      slots_.push_back({slot, m_->jnt_qposadr[id], m_->jnt_dofadr[id]});
      covered += slot.nv;
    }
    if (covered != n_)
      throw std::runtime_error("mujoco peer: " + robot.name + ": " + std::to_string(n_) + " DoFs in MuJoCo, " +
                               std::to_string(covered) + " in treedyn");
    dense_.resize(n_, n_);
    buf_.resize(n_);
  }
  ~MujocoState() {
    mj_deleteData(d_);
    mj_deleteModel(m_);
  }
  MujocoState(const MujocoState&) = delete;
  MujocoState& operator=(const MujocoState&) = delete;

  /// qpos and qvel from treedyn's q and v; T and c of the conversion (top of the file).
  void set(const VecX<double>& q, const VecX<double>& v) {
    T_ = MatX<double>::Zero(n_, n_);
    c_ = VecX<double>::Zero(n_);
    for (const Slot& s : slots_) {
      const int o = s.slot.v_offset, oq = s.slot.q_offset;
      if (s.slot.nq != 7) {
        m_qpos()[s.qadr] = q[oq];
        T_(s.dadr, o) = 1.0;
        continue;
      }
      const Eigen::Quaterniond quat(q[oq + 6], q[oq + 3], q[oq + 4], q[oq + 5]);
      const Eigen::Matrix3d Rb = quat.normalized().toRotationMatrix();  // body → world
      for (int i = 0; i < 3; ++i) m_qpos()[s.qadr + i] = q[oq + i];
      m_qpos()[s.qadr + 3] = q[oq + 6];  // w first
      for (int i = 0; i < 3; ++i) m_qpos()[s.qadr + 4 + i] = q[oq + 3 + i];
      T_.block(s.dadr, o + 3, 3, 3) = Rb;                                     // ṗ = R v_O
      T_.block(s.dadr + 3, o, 3, 3) = Eigen::Matrix3d::Identity();            // ω, body coordinates
      c_.segment<3>(s.dadr) = Rb * v.segment<3>(o).cross(v.segment<3>(o + 3));  // R (ω × v_O)
    }
    Eigen::Map<VecX<double>>(d_->qvel, n_) = T_ * v;
  }

  mjtNum* m_qpos() { return d_->qpos; }
  void kinematics_crb() {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_crb(m_, d_);
  }
  void rne(int flg_acc, mjtNum* out) {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_comVel(m_, d_);
    mj_rne(m_, d_, flg_acc, out);
  }
  MatX<double> H_mj() {  // treedyn's row-major-free dense copy of qM
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> full(n_, n_);
    mj_fullM(m_, full.data(), d_->qM);
    return full;
  }

  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  int n_ = 0;
  MatX<double> T_, dense_;
  VecX<double> c_, buf_;

 private:
  struct Slot {
    JointSlot slot;
    int qadr, dadr;
  };
  std::vector<Slot> slots_;
};

class MujocoPeer final : public Peer<double> {
 public:
  MujocoPeer(const Robot& robot, const std::vector<JointSlot>& layout) : s_(robot, layout) {}
  std::string library() const override { return "mujoco"; }
  int nv() const override { return s_.n_; }

  void set_state(const VecX<double>& q, const VecX<double>& v, const VecX<double>& a,
                 const VecX<double>& tau) override {
    s_.set(q, v);
    qacc_ = s_.T_ * a + s_.c_;
    tau_ = s_.T_ * tau;
    Eigen::Map<VecX<double>>(s_.d_->qacc, s_.n_) = qacc_;
    Eigen::Map<VecX<double>>(s_.d_->qfrc_applied, s_.n_) = tau_;
  }

  VecX<double> check_rnea() override {
    Eigen::Map<VecX<double>>(s_.d_->qacc, s_.n_) = qacc_;
    s_.rne(1, s_.buf_.data());
    return s_.T_.transpose() * s_.buf_;
  }
  VecX<double> check_bias() override {
    s_.kinematics_crb();
    s_.rne(0, s_.d_->qfrc_bias);
    VecX<double> Hc(s_.n_);
    mj_mulM(s_.m_, s_.d_, Hc.data(), s_.c_.data());
    return s_.T_.transpose() * (Eigen::Map<VecX<double>>(s_.d_->qfrc_bias, s_.n_) + Hc);
  }
  MatX<double> check_crba() override {
    s_.kinematics_crb();
    return s_.T_.transpose() * s_.H_mj() * s_.T_;
  }
  VecX<double> check_aba() override {
    mj_forward(s_.m_, s_.d_);
    const VecX<double> out = s_.T_.transpose() * (Eigen::Map<VecX<double>>(s_.d_->qacc, s_.n_) - s_.c_);
    Eigen::Map<VecX<double>>(s_.d_->qacc, s_.n_) = qacc_;  // mj_forward overwrote the RNEA's qacc
    return out;
  }
  MatX<double> check_minverse() override { return MatX<double>(); }

  void time_rnea() override { s_.rne(1, s_.buf_.data()); }
  void time_bias() override { s_.rne(0, s_.d_->qfrc_bias); }
  void time_crba() override { s_.kinematics_crb(); }
  void time_aba() override { mj_forward(s_.m_, s_.d_); }  // leaves qacc = FD's: time_rnea reads it
  void time_minverse() override {}

 private:
  MujocoState s_;
  VecX<double> qacc_, tau_;
};

class MujocoExtra final : public ExtraPeer<double> {
 public:
  MujocoExtra(const Robot& robot, const std::vector<JointSlot>& layout) : s_(robot, layout) {}
  std::string library() const override { return "mujoco"; }

  void set_state(const VecX<double>& q, const VecX<double>& v, const VecX<double>&, const VecX<double>& b) override {
    s_.set(q, v);
    s_.kinematics_crb();
    mj_factorM(s_.m_, s_.d_);
    b_ = s_.T_ * b;
    x_.resize(s_.n_);
  }
  VecX<double> check_solve() override {
    mj_solveM(s_.m_, s_.d_, x_.data(), b_.data(), 1);
    return s_.T_.transpose() * x_;
  }
  void set_frames(const std::vector<std::string>&) override {}
  VecX<double> check_modified_aba() override { return VecX<double>(); }
  MatX<double> check_oscm() override { return MatX<double>(); }  // no OSCM routine in MuJoCo's API

  void time_factor() override { mj_factorM(s_.m_, s_.d_); }
  void time_solve() override { mj_solveM(s_.m_, s_.d_, x_.data(), b_.data(), 1); }
  void time_modified_aba() override {}
  void time_oscm() override {}

 private:
  MujocoState s_;
  VecX<double> b_, x_;
};

}  // namespace

std::unique_ptr<Peer<double>> make_mujoco_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<MujocoPeer>(robot, layout);
}

std::unique_ptr<ExtraPeer<double>> make_mujoco_extra_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<MujocoExtra>(robot, layout);
}

}  // namespace treedyn::peers
