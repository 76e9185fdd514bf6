// generate_robots: writes the built-in robots (include/treedyn/robots/) as robot files, so that a robot
// loaded from a file and the programmatic robot are the same robot:
//   examples/robots/{humanoid30,chain30,arm7,puma560}.urdf and examples/robots/{humanoid30,chain30,puma560}.xml (MJCF).
// (arm7's MJCF, tests/mjcf/fixtures/arm7.xml, is written by hand from the paper's table with fullinertia.)
// When built with the URDF component it also writes examples/robots/quadruped12.xml from the hand-written
// quadruped12.urdf as treedyn loads it (floating base; the feet, merged fixed links, become sites).
//
// Usage: generate_robots <output directory>
//
// One walk of each Model (describe) gives, per body, its parent, joint, joint placement X_T = (E, r) and its
// inertial in the form both formats take: mass, centre of mass c = h/m and the rotational inertia about c with
// axes parallel to the body frame, Ī_C = Ī_O − m(|c|²1 − c cᵀ); and one extra frame per named frame of a
// merged fixed body (arm7's "flange"). A free-flying first body is the floating base. Two writers print it:
// - URDF: one <link> per body, one <joint> per body (revolute bodies become "continuous" joints: the
//   programmatic robots carry no limits) whose <origin> is the pose of the joint frame in the parent link
//   frame: xyz = r and R = Eᵀ = Rz(yaw) Ry(pitch) Rx(roll); each rpy is checked to reproduce its rotation to
//   1e-15; a massless link on a fixed joint per extra frame; the floating base is the root link (load with
//   options.floating_base = true), otherwise the root is a massless link "world".
// - MJCF: nested <body> elements with pos = r and quat = Eᵀ (w, x, y, z), a <freejoint> on the floating base,
//   a hinge (type="hinge", axis in the body frame, with its range in radians when limited) on every other body, an <inertial> in principal axes
//   (pos = c, quat = the eigenvectors of Ī_C, diaginertia = its eigenvalues; MuJoCo 2.2.2 diagonalises
//   fullinertia with an iterative solver to about 1e-7, so the exact eigenvectors are written instead) and a
//   <site> per extra frame; gravity in <option>, constraints disabled (the files have no geoms).
// Numbers are printed with 17 significant digits.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "treedyn/robots/robots.hpp"
#if TREEDYN_GENERATE_WITH_URDF
#include "treedyn/urdf/build_model.hpp"
#endif

namespace {

using Matrix3d = treedyn::Matrix3<double>;
using treedyn::Transform;
using Vector3d = treedyn::Vector3<double>;

std::string numbers(const Vector3d& v) {
  std::ostringstream s;
  s << std::setprecision(17) << v.x() << ' ' << v.y() << ' ' << v.z();
  return s.str();
}

std::string number(double x) {
  std::ostringstream s;
  s << std::setprecision(17) << x;
  return s.str();
}

/// A body's inertial as robot files write it: mass, centre of mass and the inertia about it (body axes).
struct Inertial {
  double m = 0.0;
  Vector3d c = Vector3d::Zero();
  Matrix3d Ic = Matrix3d::Zero();
  bool present = false;  ///< false: a massless, inertia-free body (written without an inertial)
};

/// One body (or one extra frame: joint_type empty) of a robot, as both writers need it.
struct Part {
  std::string name, parent, joint_name;  ///< parent empty: on the world (or the floating base itself)
  std::string joint_type;                ///< "free", "revolute", or empty for a frame
  Transform<double> X;                   ///< the pose of the body (frame) in its parent: X_T, or the frame placement
  Vector3d axis = Vector3d::Zero();
  double lower = -HUGE_VAL, upper = HUGE_VAL;  ///< the joint's position limits (infinite: none)
  Inertial inertial;
};

struct Robot {
  std::string name;
  bool floating = false;
  Vector3d gravity = Vector3d::Zero();
  std::vector<Part> bodies;  ///< in body-index order: every parent before its children (depth-first)
  std::vector<Part> frames;  ///< the named frames of merged fixed bodies
};

Inertial inertial_of(const treedyn::RigidInertia<double>& I) {
  Inertial in;
  in.present = I.m > 0.0 || I.I.matrix().cwiseAbs().maxCoeff() > 0.0;  // a massless body may still have inertia
  in.m = I.m;
  in.c = I.m > 0.0 ? Vector3d(I.h / I.m) : Vector3d::Zero();
  in.Ic = I.I.matrix() - I.m * (in.c.squaredNorm() * Matrix3d::Identity() - in.c * in.c.transpose());
  return in;
}

/// The one walk of the Model that both writers print.
Robot describe(const std::string& name, const treedyn::Model<double>& model) {
  Robot robot;
  robot.name = name;
  robot.floating = model.joint(0).type == treedyn::JointType::free_flyer;
  robot.gravity = model.gravity();
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    Part b;
    b.name = model.name(i);
    b.joint_name = model.joint_name(i);
    b.X = model.tree_transform(i);
    b.inertial = inertial_of(model.inertia(i));
    if (i == 0 && robot.floating) {
      if ((b.X.E - Matrix3d::Identity()).cwiseAbs().maxCoeff() != 0.0 || b.X.r.cwiseAbs().maxCoeff() != 0.0)
        throw std::runtime_error("a floating base with a tree transform");
      b.joint_type = "free";
    } else {
      if (p == treedyn::no_parent && robot.floating) throw std::runtime_error("a second body on the base");
      if (p >= i) throw std::runtime_error("a parent after its child");
      if (model.joint(i).type != treedyn::JointType::revolute)
        throw std::runtime_error("only revolute joints below the root");
      b.joint_type = "revolute";
      b.axis = model.joint(i).axis;
      b.lower = model.limits(i).lower;
      b.upper = model.limits(i).upper;
      if (p != treedyn::no_parent) b.parent = model.name(p);
    }
    robot.bodies.push_back(b);
  }
  for (const treedyn::Frame<double>& f : model.frames()) {
    if (f.body != treedyn::no_parent && f.name == model.name(f.body)) continue;  // a body's own frame
    if (f.body == treedyn::no_parent) throw std::runtime_error("a frame on the base");
    Part frame;
    frame.name = f.name;
    frame.parent = model.name(f.body);
    frame.X = f.placement;
    robot.frames.push_back(frame);
  }
  return robot;
}

// ---- URDF ----

Matrix3d rpy_rotation(const Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vector3d::UnitX()))
      .toRotationMatrix();
}

/// roll, pitch, yaw of R = Rz(yaw) Ry(pitch) Rx(roll) (URDF's convention); throws near gimbal lock.
Vector3d rpy_of(const Matrix3d& R) {
  const Vector3d rpy(std::atan2(R(2, 1), R(2, 2)), std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0))),
                     std::atan2(R(1, 0), R(0, 0)));
  if ((rpy_rotation(rpy) - R).cwiseAbs().maxCoeff() > 1e-15) throw std::runtime_error("rpy does not reproduce R");
  return rpy;
}

/// <origin> of the child frame whose Plücker transform from the parent frame is X = (E, r).
std::string origin(const Transform<double>& X) {
  return "<origin xyz=\"" + numbers(X.r) + "\" rpy=\"" + numbers(rpy_of(X.E.transpose())) + "\"/>";
}

std::string urdf_link(const std::string& name, const Inertial& in) {
  std::ostringstream s;
  s << "  <link name=\"" << name << "\">\n";
  if (in.present) {
    const Matrix3d& Ic = in.Ic;
    s << "    <inertial>\n"
      << "      <origin xyz=\"" << numbers(in.c) << "\" rpy=\"0 0 0\"/>\n"
      << "      <mass value=\"" << number(in.m) << "\"/>\n"
      << "      <inertia ixx=\"" << number(Ic(0, 0)) << "\" ixy=\"" << number(Ic(0, 1)) << "\" ixz=\"" << number(Ic(0, 2))
      << "\" iyy=\"" << number(Ic(1, 1)) << "\" iyz=\"" << number(Ic(1, 2)) << "\" izz=\"" << number(Ic(2, 2)) << "\"/>\n"
      << "    </inertial>\n";
  }
  s << "  </link>\n";
  return s.str();
}

std::string urdf_joint(const std::string& name, const char* type, const std::string& parent, const std::string& child,
                       const Transform<double>& X, const Vector3d* axis) {
  std::ostringstream s;
  s << "  <joint name=\"" << name << "\" type=\"" << type << "\">\n"
    << "    <parent link=\"" << parent << "\"/>\n"
    << "    <child link=\"" << child << "\"/>\n"
    << "    " << origin(X) << "\n";
  if (axis) s << "    <axis xyz=\"" << numbers(*axis) << "\"/>\n";
  s << "  </joint>\n";
  return s.str();
}

std::string urdf(const Robot& robot) {
  std::ostringstream s;
  s << "<?xml version=\"1.0\"?>\n"
    << "<!-- treedyn robots::" << robot.name << "() as URDF, GENERATED by examples/robots/generate_robots.cpp from the\n"
    << "     programmatic model (include/treedyn/robots/" << robot.name << ".hpp): do not edit by hand.\n"
    << (robot.floating ? "     Load with treedyn::urdf::Options::floating_base = true (the root link is free-flying).\n"
                       : "     The root link \"world\" is fixed to the world.\n")
    << "     tests/urdf/test_urdf_robots.cpp checks that H, C and ABA agree with the programmatic robot. -->\n"
    << "<robot name=\"" << robot.name << "\">\n";
  if (!robot.floating) s << "  <link name=\"world\"/>\n";
  for (const Part& b : robot.bodies) {
    s << urdf_link(b.name, b.inertial);
    if (b.joint_type == "free") continue;
    s << urdf_joint(b.joint_name, "continuous", b.parent.empty() ? std::string("world") : b.parent, b.name, b.X,
                    &b.axis);
  }
  for (const Part& f : robot.frames) {
    s << urdf_link(f.name, Inertial{});
    s << urdf_joint(f.name + "_joint", "fixed", f.parent, f.name, f.X, nullptr);
  }
  s << "</robot>\n";
  return s.str();
}

// ---- MJCF ----

/// MuJoCo's quat (w x y z) of the rotation R.
std::string quat(const Matrix3d& R) {
  const Eigen::Quaterniond e(R);
  std::ostringstream s;
  s << std::setprecision(17) << e.w() << ' ' << e.x() << ' ' << e.y() << ' ' << e.z();
  return s.str();
}

/// `pos` and `quat` of a body or site placed by X = (E, r) in its parent: r and Eᵀ.
std::string placement(const Transform<double>& X) {
  return "pos=\"" + numbers(X.r) + "\" quat=\"" + quat(X.E.transpose()) + "\"";
}

/// <inertial> in principal axes: Ī_C = V diag(λ) Vᵀ, V a rotation (a column flipped if det V < 0).
std::string mjcf_inertial(const Inertial& in) {
  if (!in.present) return "";
  const Eigen::SelfAdjointEigenSolver<Matrix3d> eig(in.Ic);
  if (eig.info() != Eigen::Success) throw std::runtime_error("an inertia without an eigendecomposition");
  Matrix3d V = eig.eigenvectors();
  if (V.determinant() < 0.0) V.col(2) = -V.col(2);
  const Matrix3d back = V * eig.eigenvalues().asDiagonal() * V.transpose();
  if ((back - in.Ic).cwiseAbs().maxCoeff() > 1e-14 * in.Ic.cwiseAbs().maxCoeff())
    throw std::runtime_error("the principal axes do not reproduce the inertia");
  return "<inertial pos=\"" + numbers(in.c) + "\" quat=\"" + quat(V) + "\" mass=\"" + number(in.m) +
         "\" diaginertia=\"" + numbers(eig.eigenvalues()) + "\"/>";
}

/// Body `i` of `robot` and everything below it, indented by `depth`.
void mjcf_body(const Robot& robot, std::size_t i, int depth, std::ostringstream& s) {
  const Part& b = robot.bodies[i];
  const std::string pad(static_cast<std::size_t>(2 * depth), ' ');
  s << pad << "<body name=\"" << b.name << "\"";
  if (b.joint_type != "free") s << ' ' << placement(b.X);
  s << ">\n";
  if (b.joint_type == "free") {
    s << pad << "  <freejoint name=\"" << b.joint_name << "\"/>\n";
  } else {
    s << pad << "  <joint name=\"" << b.joint_name << "\" type=\"hinge\" axis=\"" << numbers(b.axis) << "\"";
    if (std::isfinite(b.lower) && std::isfinite(b.upper))
      s << " limited=\"true\" range=\"" << number(b.lower) << ' ' << number(b.upper) << "\"";
    else if (std::isfinite(b.lower) || std::isfinite(b.upper))
      throw std::runtime_error("a joint limited on one side");
    s << "/>\n";
  }
  if (b.inertial.present) s << pad << "  " << mjcf_inertial(b.inertial) << "\n";
  for (const Part& f : robot.frames)
    if (f.parent == b.name) s << pad << "  <site name=\"" << f.name << "\" " << placement(f.X) << "/>\n";
  for (std::size_t c = i + 1; c < robot.bodies.size(); ++c)
    if (robot.bodies[c].parent == b.name) mjcf_body(robot, c, depth + 1, s);
  s << pad << "</body>\n";
}

std::string mjcf(const Robot& robot) {
  std::ostringstream s;
  const bool builtin = robot.name != "quadruped12";
  s << "<!-- treedyn " << robot.name << " as MJCF, GENERATED by examples/robots/generate_robots.cpp from "
    << (builtin ? "the\n     programmatic model robots::" + robot.name + "() (include/treedyn/robots/" + robot.name + ".hpp)"
                : "\n     examples/robots/" + robot.name + ".urdf as treedyn::urdf::load reads it (floating base)")
    << ": do not edit by hand.\n"
    << "     tests/mjcf/test_mjcf.cpp checks that H, the bias and q̈ agree with "
    << (builtin ? "the programmatic robot, with\n     " : "") << "examples/robots/" << robot.name << ".urdf"
    << (robot.name == "puma560" ? " (MuJoCo refuses its massless link1). -->\n" : " and with MuJoCo. -->\n")
    << "<mujoco model=\"" << robot.name << "\">\n"
    << "  <compiler angle=\"radian\"/>\n"
    << "  <option gravity=\"" << numbers(robot.gravity) << "\"><flag constraint=\"disable\"/></option>\n"
    << "  <worldbody>\n";
  for (std::size_t i = 0; i < robot.bodies.size(); ++i)
    if (robot.bodies[i].parent.empty()) mjcf_body(robot, i, 2, s);
  s << "  </worldbody>\n"
    << "</mujoco>\n";
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

void write(const std::string& dir, const std::string& name, const treedyn::Model<double>& model, bool with_urdf,
           bool with_mjcf) {
  const Robot robot = describe(name, model);
  if (with_urdf) write_file(dir + "/" + name + ".urdf", urdf(robot));
  if (with_mjcf) write_file(dir + "/" + name + ".xml", mjcf(robot));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output directory>\n", argv[0]);
    return 2;
  }
  try {
    const std::string dir = argv[1];
    write(dir, "humanoid30", treedyn::robots::humanoid30<double>(), true, true);
    write(dir, "chain30", treedyn::robots::chain30<double>(), true, true);
    write(dir, "arm7", treedyn::robots::arm7<double>(), true, false);  // tests/mjcf/fixtures/arm7.xml: by hand
    write(dir, "puma560", treedyn::robots::puma560<double>(), true, true);
#if TREEDYN_GENERATE_WITH_URDF
    // quadruped12 exists only as a hand-written URDF (<dir>/quadruped12.urdf): its MJCF is the loaded model
    treedyn::urdf::Options options;
    options.floating_base = true;
    write(dir, "quadruped12", treedyn::urdf::load<double>(dir + "/quadruped12.urdf", options).model, false, true);
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "generate_robots: %s\n", e.what());
    return 1;
  }
  return 0;
}
