// The one C++ file of the ONNX importer: reads the protobuf through
// Debian's libonnx (ONNX 1.12) into the plain C structs of onnx_model.h
// and runs onnx::shape_inference::InferShapes with the importer's hints
// (in a child process: libonnx crashes on some malformed models).
// No exception leaves this file: each entry point catches and returns a
// negative errno with a message.  Everything else is C (onnx.c).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "core/isolate.h"
#include "import/onnx_model.h"

namespace {

// Limits that keep a small hostile file from asking for huge work.
constexpr size_t kMaxGraphs = 4096;
constexpr size_t kMaxNodes = 1 << 20;
constexpr int kMaxRank = 64;
constexpr int kMaxDepth = 16;           // nested subgraphs
constexpr int kRecursionLimit = 128;    // protobuf message nesting

char *dup(const std::string &s)
{
	char *p = static_cast<char *>(std::malloc(s.size() + 1));
	if (!p)
		throw std::bad_alloc();
	std::memcpy(p, s.data(), s.size());
	p[s.size()] = 0;
	return p;
}

template <typename T> T *alloc_array(size_t n)
{
	if (n == 0)
		return nullptr;
	T *p = static_cast<T *>(std::calloc(n, sizeof(T)));
	if (!p)
		throw std::bad_alloc();
	return p;
}

struct too_big : std::exception {
	std::string what_;
	explicit too_big(std::string w) : what_(std::move(w)) {}
	const char *what() const noexcept override { return what_.c_str(); }
};

void free_type(ab_onnx_type *t)
{
	if (t->params)
		for (int i = 0; i < t->rank; i++)
			std::free(t->params[i]);
	std::free(t->params);
	std::free(t->dims);
	*t = ab_onnx_type();
}

void free_value(ab_onnx_value *v)
{
	std::free(v->name);
	free_type(&v->type);
	std::free(v->data);
	*v = ab_onnx_value();
}

void free_values(ab_onnx_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_value(&v[i]);
	std::free(v);
}

void fill_shape(ab_onnx_type *t, const onnx::TensorShapeProto &s)
{
	if (s.dim_size() > kMaxRank)
		throw too_big("rank " + std::to_string(s.dim_size()) + " (expected at most " +
			      std::to_string(kMaxRank) + ")");
	t->rank = s.dim_size();
	t->dims = alloc_array<int64_t>((size_t)t->rank);
	t->params = alloc_array<char *>((size_t)t->rank);
	for (int i = 0; i < t->rank; i++) {
		const auto &d = s.dim(i);
		t->dims[i] = d.has_dim_value() ? d.dim_value() : -1;
		if (d.has_dim_param())
			t->params[i] = dup(d.dim_param());
		else if (d.has_dim_value() && d.dim_value() < 0)
			t->dims[i] = -2; // negative in the file: the C side refuses it
	}
}

void fill_type(ab_onnx_type *t, const onnx::TypeProto &tp)
{
	t->rank = -1;
	switch (tp.value_case()) {
	case onnx::TypeProto::kTensorType:
		t->category = AB_ONNX_TENSOR;
		t->elem = tp.tensor_type().elem_type();
		if (tp.tensor_type().has_shape())
			fill_shape(t, tp.tensor_type().shape());
		break;
	case onnx::TypeProto::kSequenceType: t->category = AB_ONNX_SEQUENCE; break;
	case onnx::TypeProto::kMapType: t->category = AB_ONNX_MAP; break;
	case onnx::TypeProto::kOptionalType: t->category = AB_ONNX_OPTIONAL; break;
	case onnx::TypeProto::kSparseTensorType: t->category = AB_ONNX_SPARSE; break;
	default: t->category = AB_ONNX_UNKNOWN; break;
	}
}

void fill_info(ab_onnx_value *v, const onnx::ValueInfoProto &vi)
{
	v->name = dup(vi.name());
	if (vi.has_type())
		fill_type(&v->type, vi.type());
	else
		v->type.rank = -1;
}

// Little-endian integer of `bytes` bytes at p, signed or not.
int64_t read_le(const unsigned char *p, unsigned bytes, bool is_signed)
{
	uint64_t x = 0;
	for (unsigned i = 0; i < bytes; i++)
		x |= (uint64_t)p[i] << (8 * i);
	if (is_signed && bytes < 8 && (x >> (8 * bytes - 1)) & 1)
		x |= ~0ull << (8 * bytes);
	return (int64_t)x;
}

bool elem_is_integer(int32_t e, bool *is_signed)
{
	using T = onnx::TensorProto;
	switch (e) {
	case T::INT8: case T::INT16: case T::INT32: case T::INT64:
		*is_signed = true; return true;
	case T::UINT8: case T::UINT16: case T::UINT32: case T::UINT64: case T::BOOL:
		*is_signed = false; return true;
	default: return false;
	}
}

void fill_tensor(ab_onnx_value *v, const onnx::TensorProto &t)
{
	v->name = dup(t.name());
	v->type.category = AB_ONNX_TENSOR;
	v->type.elem = t.data_type();
	if (t.dims_size() > kMaxRank)
		throw too_big("initializer '" + t.name() + "': rank " + std::to_string(t.dims_size()));
	v->type.rank = t.dims_size();
	v->type.dims = alloc_array<int64_t>((size_t)v->type.rank);
	v->type.params = alloc_array<char *>((size_t)v->type.rank);
	for (int i = 0; i < v->type.rank; i++)
		v->type.dims[i] = t.dims(i) < 0 ? -2 : t.dims(i);
	unsigned bits = ab_onnx_elem_bits(t.data_type());
	v->external = t.data_location() == onnx::TensorProto::EXTERNAL;
	if (v->external) {
		for (const auto &kv : t.external_data())
			if (kv.key() == "length")
				v->stored_bytes = std::strtoull(kv.value().c_str(), nullptr, 10);
		return; // the bytes live in another file: references only
	}
	size_t typed = (size_t)t.float_data_size() + t.int32_data_size() + t.int64_data_size() +
		       t.double_data_size() + t.uint64_data_size() + t.string_data_size();
	if (t.has_raw_data())
		v->stored_bytes = t.raw_data().size();
	else
		v->stored_bytes = (uint64_t)typed * (bits ? (bits + 7) / 8 : 1);
	bool is_signed = false;
	if (!elem_is_integer(t.data_type(), &is_signed))
		return;
	// Count of elements by the dims, with an overflow check.
	uint64_t count = 1;
	for (int i = 0; i < v->type.rank; i++) {
		if (v->type.dims[i] < 0)
			return;
		if (v->type.dims[i] && count > UINT64_MAX / (uint64_t)v->type.dims[i])
			return;
		count *= (uint64_t)v->type.dims[i];
	}
	if (count > AB_ONNX_MAX_FOLD)
		return;
	unsigned bytes = (bits + 7) / 8;
	if (t.has_raw_data()) {
		if (t.raw_data().size() != count * bytes)
			return; // the C side reports the mismatch by stored_bytes
	} else if (t.int64_data_size() + t.int32_data_size() + t.uint64_data_size() != (int64_t)count) {
		return;
	}
	v->n_data = count;
	v->data = alloc_array<int64_t>(count ? count : 1);
	for (size_t k = 0; k < count; k++) {
		if (t.has_raw_data())
			v->data[k] = read_le((const unsigned char *)t.raw_data().data() + k * bytes,
					     bytes, is_signed);
		else if (t.int64_data_size())
			v->data[k] = t.int64_data((int)k);
		else if (t.uint64_data_size())
			v->data[k] = (int64_t)t.uint64_data((int)k);
		else
			v->data[k] = t.int32_data((int)k);
	}
	v->has_data = true;
}

struct Converter {
	ab_onnx_model *m;
	std::vector<ab_onnx_graph> graphs;
	std::vector<const onnx::GraphProto *> protos;
	size_t nodes = 0;

	int add_graph(const onnx::GraphProto &g, int parent_graph, int parent_node, int depth)
	{
		if (depth > kMaxDepth)
			throw too_big("subgraphs nested deeper than " + std::to_string(kMaxDepth));
		if (graphs.size() >= kMaxGraphs)
			throw too_big("more than " + std::to_string(kMaxGraphs) + " graphs");
		nodes += (size_t)g.node_size();
		if (nodes > kMaxNodes)
			throw too_big("more than " + std::to_string(kMaxNodes) + " nodes");
		int id = (int)graphs.size();
		graphs.push_back(ab_onnx_graph());
		protos.push_back(&g);
		ab_onnx_graph r = ab_onnx_graph();
		r.name = dup(g.name());
		r.parent_graph = parent_graph;
		r.parent_node = parent_node;
		r.n_inits = (size_t)g.initializer_size();
		r.n_inputs = (size_t)g.input_size();
		r.n_outputs = (size_t)g.output_size();
		r.n_nodes = (size_t)g.node_size();
		graphs[(size_t)id] = r; // so that an exception below frees it all
		r.inits = graphs[(size_t)id].inits = alloc_array<ab_onnx_value>(r.n_inits);
		r.inputs = graphs[(size_t)id].inputs = alloc_array<ab_onnx_value>(r.n_inputs);
		r.outputs = graphs[(size_t)id].outputs = alloc_array<ab_onnx_value>(r.n_outputs);
		r.nodes = graphs[(size_t)id].nodes = alloc_array<ab_onnx_node>(r.n_nodes);
		for (size_t i = 0; i < r.n_inits; i++)
			fill_tensor(&r.inits[i], g.initializer((int)i));
		for (size_t i = 0; i < r.n_inputs; i++)
			fill_info(&r.inputs[i], g.input((int)i));
		for (size_t i = 0; i < r.n_outputs; i++)
			fill_info(&r.outputs[i], g.output((int)i));
		for (size_t i = 0; i < r.n_nodes; i++) {
			const onnx::NodeProto &n = g.node((int)i);
			ab_onnx_node *o = &graphs[(size_t)id].nodes[i];
			o->name = dup(n.name());
			o->op = dup(n.op_type());
			o->domain = dup(n.domain() == "ai.onnx" ? std::string() : n.domain());
			o->n_in = (size_t)n.input_size();
			o->in = alloc_array<char *>(o->n_in);
			for (size_t k = 0; k < o->n_in; k++)
				o->in[k] = dup(n.input((int)k));
			o->n_out = (size_t)n.output_size();
			o->out = alloc_array<char *>(o->n_out);
			for (size_t k = 0; k < o->n_out; k++)
				o->out[k] = dup(n.output((int)k));
			o->n_attr = (size_t)n.attribute_size();
			o->attr = alloc_array<ab_onnx_attr>(o->n_attr);
			for (size_t k = 0; k < o->n_attr; k++) {
				const onnx::AttributeProto &a = n.attribute((int)k);
				ab_onnx_attr *x = &o->attr[k];
				x->name = dup(a.name());
				x->type = a.type();
				x->graph = -1;
				x->i = a.i();
				x->f = a.f();
				x->n_ints = (size_t)a.ints_size();
				x->ints = alloc_array<int64_t>(x->n_ints);
				for (size_t j = 0; j < x->n_ints; j++)
					x->ints[j] = a.ints((int)j);
				if (a.has_t()) {
					x->t = alloc_array<ab_onnx_value>(1);
					fill_tensor(x->t, a.t());
				}
				if (a.has_g()) {
					int sub = add_graph(a.g(), id, (int)i, depth + 1);
					graphs[(size_t)id].nodes[i].attr[k].graph = sub;
				}
				// GRAPHS lists (Scan bodies in old opsets do not use it);
				// each listed graph is read too, so control flow sees it.
				for (int j = 0; j < a.graphs_size(); j++) {
					int sub = add_graph(a.graphs(j), id, (int)i, depth + 1);
					if (graphs[(size_t)id].nodes[i].attr[k].graph < 0)
						graphs[(size_t)id].nodes[i].attr[k].graph = sub;
				}
			}
		}
		return id;
	}
};

void free_graph(ab_onnx_graph *g)
{
	std::free(g->name);
	for (size_t i = 0; i < g->n_nodes; i++) {
		ab_onnx_node *n = &g->nodes[i];
		std::free(n->name);
		std::free(n->op);
		std::free(n->domain);
		for (size_t k = 0; n->in && k < n->n_in; k++)
			std::free(n->in[k]);
		for (size_t k = 0; n->out && k < n->n_out; k++)
			std::free(n->out[k]);
		std::free(n->in);
		std::free(n->out);
		for (size_t k = 0; n->attr && k < n->n_attr; k++) {
			std::free(n->attr[k].name);
			std::free(n->attr[k].ints);
			if (n->attr[k].t)
				free_values(n->attr[k].t, 1);
		}
		std::free(n->attr);
	}
	std::free(g->nodes);
	free_values(g->inits, g->n_inits);
	free_values(g->inputs, g->n_inputs);
	free_values(g->outputs, g->n_outputs);
	free_values(g->infos, g->n_infos);
	*g = ab_onnx_graph();
}

void free_model(ab_onnx_model *m)
{
	for (size_t i = 0; i < m->n_graphs; i++)
		free_graph(&m->graphs[i]);
	std::free(m->graphs);
	std::free(m->producer);
	*m = ab_onnx_model();
}

// Every graph of a model in the converter's order (depth first, in node
// and attribute order), mutable, so hints land in the right one.
void collect_graphs(onnx::GraphProto *g, std::vector<onnx::GraphProto *> &out)
{
	out.push_back(g);
	for (auto &n : *g->mutable_node())
		for (auto &a : *n.mutable_attribute()) {
			if (a.has_g())
				collect_graphs(a.mutable_g(), out);
			for (auto &sg : *a.mutable_graphs())
				collect_graphs(&sg, out);
		}
}

int fail(ab_error *err, int code, const char *path, const std::string &what)
{
	return ab_fail(err, code, "%s: %s", path, what.c_str());
}

// The operators whose libonnx 1.12 inference may crash on a malformed
// model: the convolutions' (convPoolShapeInference,
// convTransposeShapeInference) take the kernel's rank from the weights and
// then index vectors sized by the input's rank, so weights of another rank
// than the input read past the end; the control-flow operators' (If, Loop,
// Scan: ScanInferenceFunction read through a null pointer on a Scan whose
// body was cut, fuzz_onnx) infer subgraphs without checking them.  Models
// with one of them are inferred in a child process; the others in this
// one (a fork per round costs 10-20 ms on a 300 MB process).
bool needs_child(const std::vector<onnx::GraphProto *> &gs)
{
	for (auto *g : gs)
		for (const auto &n : g->node())
			if (n.op_type() == "Conv" || n.op_type() == "ConvInteger" ||
			    n.op_type() == "QLinearConv" || n.op_type() == "ConvTranspose" ||
			    n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan")
				return true;
	return false;
}

// Runs libonnx's InferShapes on m in a child process (core/isolate.h) and
// leaves each graph's value_info and outputs, as inferred, in gs[i].
// Debian's libonnx 1.12 reads through a null pointer on some malformed
// models (fuzz_onnx found a ConvInteger whose input has a lower rank than
// its weights: convPoolShapeInference; and a Scan: ScanInferenceFunction),
// and a crash there must be the
// file's error, not the harness's.  The child answers with one tag byte
// ('O' inferred, 'E' an exception's message, 'M' out of memory) and, after
// 'O', each graph's value_info and outputs as a length-prefixed GraphProto.
// 0, or a negative errno with err filled.
struct infer_job {
	onnx::ModelProto *m;
	std::vector<onnx::GraphProto *> *gs;
	onnx::ISchemaRegistry *registry;
};

// The one call of libonnx's inference, in this process or the child:
// check_type off, strict 0, data propagation on (docs/onnx.md).
void infer_shapes(onnx::ModelProto &m, onnx::ISchemaRegistry *registry)
{
	onnx::ShapeInferenceOptions opt(false, 0, true);
	onnx::shape_inference::InferShapes(m, registry, opt);
}

int infer_child(void *arg, int fd)
{
	auto *j = static_cast<infer_job *>(arg);
	std::string out;
	try {
		infer_shapes(*j->m, j->registry);
		out = "O";
		for (auto *g : *j->gs) {
			onnx::GraphProto t;
			*t.mutable_value_info() = g->value_info();
			*t.mutable_output() = g->output();
			std::string b = t.SerializeAsString();
			uint64_t len = b.size();
			out.append(reinterpret_cast<const char *>(&len), sizeof(len));
			out += b;
		}
	} catch (const std::bad_alloc &) {
		out = "M";
	} catch (const std::exception &e) {
		out = std::string("E") + e.what();
	}
	return ab_write_all(fd, out.data(), out.size());
}

int infer_isolated(onnx::ModelProto &m, std::vector<onnx::GraphProto *> &gs,
		   const char *path, ab_error *err)
{
	// the schema registry is built on first use: once, here, not in
	// every child
	infer_job job = { &m, &gs, onnx::OpSchemaRegistry::Instance() };
	(void)onnx::OpSchemaRegistry::Schema("Conv");
	ab_isolated r;
	if (int rc = ab_run_isolated(infer_child, &job, &r))
		return ab_fail(err, rc, "%s: ONNX shape inference: cannot start its process: %s", path,
			       std::strerror(-rc));
	std::string in(r.out, r.len);
	std::free(r.out);
	if (r.signal)
		return fail(err, -EBADMSG, path,
			    std::string("ONNX shape inference (libonnx) crashed on this model (") +
				    strsignal(r.signal) +
				    "): a node's inputs contradict its operator, e.g. ranks that do not match");
	if (r.exit_status != 0 || in.empty())
		return fail(err, -EIO, path, "ONNX shape inference: its process ended without an answer");
	if (in[0] == 'M')
		throw std::bad_alloc();
	if (in[0] == 'E')
		return fail(err, -EBADMSG, path, "ONNX shape inference failed: " + in.substr(1));
	size_t at = 1;
	for (auto *g : gs) {
		uint64_t len;
		onnx::GraphProto t;
		if (in.size() - at < sizeof(len))
			return fail(err, -EIO, path, "ONNX shape inference: a short answer");
		std::memcpy(&len, in.data() + at, sizeof(len));
		at += sizeof(len);
		if (in.size() - at < len || !t.ParseFromArray(in.data() + at, (int)len))
			return fail(err, -EIO, path, "ONNX shape inference: a malformed answer");
		at += len;
		g->mutable_value_info()->Swap(t.mutable_value_info());
		g->mutable_output()->Swap(t.mutable_output());
	}
	return 0;
}

} // namespace

struct abx_onnx {
	onnx::ModelProto model;
	std::string path;
};

extern "C" {

unsigned ab_onnx_elem_bits(int32_t elem)
{
	using T = onnx::TensorProto;
	switch (elem) {
	case T::FLOAT: case T::INT32: case T::UINT32: return 32;
	case T::UINT8: case T::INT8: case T::BOOL: return 8;
	case T::UINT16: case T::INT16: case T::FLOAT16: case T::BFLOAT16: return 16;
	case T::INT64: case T::UINT64: case T::DOUBLE: case T::COMPLEX64: return 64;
	case T::COMPLEX128: return 128;
	default: return 0;
	}
}

const char *ab_onnx_elem_name(int32_t elem)
{
	if (elem > 0 && onnx::TensorProto_DataType_IsValid(elem))
		return onnx::TensorProto_DataType_Name((onnx::TensorProto_DataType)elem).c_str();
	return "UNDEFINED";
}

int abx_onnx_open(const uint8_t *bytes, size_t len, const char *path, struct abx_onnx **h,
		  struct ab_onnx_model *model, struct ab_error *err)
{
	*h = nullptr;
	*model = ab_onnx_model();
	if (len > (size_t)INT32_MAX)
		return ab_fail(err, -E2BIG, "%s: %zu bytes (expected a protobuf under 2 GiB; larger models keep their weights as external data)",
			       path, len);
	std::unique_ptr<abx_onnx> x;
	Converter c;
	c.m = model;
	try {
		x.reset(new abx_onnx());
		x->path = path;
		google::protobuf::io::CodedInputStream in(bytes, (int)len);
		in.SetRecursionLimit(kRecursionLimit);
		if (!x->model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
			return ab_fail(err, -EBADMSG, "%s: not an ONNX ModelProto (protobuf parse failed: truncated, wrong format, or nested too deeply)",
				       path);
		if (!x->model.has_graph())
			return ab_fail(err, -EBADMSG, "%s: ModelProto has no graph (expected an ONNX model)",
				       path);
		model->ir_version = x->model.ir_version();
		model->producer = dup(x->model.producer_name());
		for (const auto &o : x->model.opset_import())
			if (o.domain().empty() || o.domain() == "ai.onnx")
				model->opset = o.version();
		model->n_functions = (size_t)x->model.functions_size();
		model->n_sparse_inits = (size_t)x->model.graph().sparse_initializer_size();
		c.add_graph(x->model.graph(), -1, -1, 0);
	} catch (const too_big &e) {
		model->graphs = nullptr;
		for (auto &g : c.graphs)
			free_graph(&g);
		free_model(model);
		return fail(err, -E2BIG, path, e.what_ + " (over the importer's limits)");
	} catch (const std::bad_alloc &) {
		for (auto &g : c.graphs)
			free_graph(&g);
		free_model(model);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	} catch (const std::exception &e) {
		for (auto &g : c.graphs)
			free_graph(&g);
		free_model(model);
		return fail(err, -EBADMSG, path, std::string("cannot read the model: ") + e.what());
	}
	model->n_graphs = c.graphs.size();
	model->graphs = static_cast<ab_onnx_graph *>(std::calloc(c.graphs.size(), sizeof(ab_onnx_graph)));
	if (!model->graphs) {
		for (auto &g : c.graphs)
			free_graph(&g);
		free_model(model);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	for (size_t i = 0; i < c.graphs.size(); i++)
		model->graphs[i] = c.graphs[i];
	*h = x.release();
	return 0;
}

int abx_onnx_set_dim(struct abx_onnx *h, const char *name, int64_t value)
{
	int n = 0;
	for (auto &in : *h->model.mutable_graph()->mutable_input()) {
		if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape())
			continue;
		auto *s = in.mutable_type()->mutable_tensor_type()->mutable_shape();
		for (auto &d : *s->mutable_dim())
			if (d.has_dim_param() && d.dim_param() == name) {
				d.set_dim_value(value); // clears dim_param (a oneof)
				n++;
			}
	}
	return n;
}

int abx_onnx_set_input_dim(struct abx_onnx *h, const char *input, int axis, int64_t value)
{
	for (auto &in : *h->model.mutable_graph()->mutable_input()) {
		if (in.name() != input || !in.type().has_tensor_type() ||
		    !in.type().tensor_type().has_shape())
			continue;
		auto *s = in.mutable_type()->mutable_tensor_type()->mutable_shape();
		if (axis < 0 || axis >= s->dim_size())
			return 0;
		s->mutable_dim(axis)->set_dim_value(value); // clears dim_param (a oneof)
		return 1;
	}
	return 0;
}

int abx_onnx_infer(struct abx_onnx *h, const struct ab_onnx_hint *hints, size_t n_hints,
		   struct ab_onnx_model *model, struct ab_error *err)
{
	const char *path = h->path.c_str();
	try {
		onnx::ModelProto m = h->model;
		std::vector<onnx::GraphProto *> gs;
		collect_graphs(m.mutable_graph(), gs);
		if (gs.size() != model->n_graphs)
			return ab_fail(err, -EINVAL, "%s: internal: %zu graphs, expected %zu", path,
				       gs.size(), model->n_graphs);
		// Data hints: nodes all of whose outputs are folded become
		// Constant nodes (so inference reads their data); type hints
		// become value_info.
		std::vector<std::map<std::string, const ab_onnx_hint *>> data(gs.size());
		for (size_t i = 0; i < n_hints; i++) {
			const ab_onnx_hint &k = hints[i];
			if (k.graph < 0 || (size_t)k.graph >= gs.size())
				continue;
			if (k.data) {
				data[(size_t)k.graph][k.name] = &k;
				continue;
			}
			onnx::ValueInfoProto *vi = gs[(size_t)k.graph]->add_value_info();
			vi->set_name(k.name);
			auto *tt = vi->mutable_type()->mutable_tensor_type();
			tt->set_elem_type(k.type->elem);
			if (k.type->rank >= 0) {
				auto *s = tt->mutable_shape();
				for (int d = 0; d < k.type->rank; d++) {
					auto *dim = s->add_dim();
					if (k.type->dims[d] >= 0)
						dim->set_dim_value(k.type->dims[d]);
				}
			}
		}
		for (size_t gi = 0; gi < gs.size(); gi++) {
			if (data[gi].empty())
				continue;
			for (auto &n : *gs[gi]->mutable_node()) {
				bool all = n.output_size() == 1 && data[gi].count(n.output(0));
				if (!all || n.op_type() == "Constant")
					continue;
				const ab_onnx_hint *k = data[gi][n.output(0)];
				onnx::NodeProto c;
				c.set_name(n.name());
				c.set_op_type("Constant");
				c.add_output(n.output(0));
				auto *a = c.add_attribute();
				a->set_name("value");
				a->set_type(onnx::AttributeProto::TENSOR);
				auto *t = a->mutable_t();
				t->set_data_type(onnx::TensorProto::INT64);
				for (int d = 0; d < k->type->rank; d++)
					t->add_dims(k->type->dims[d]);
				for (size_t j = 0; j < k->n_data; j++)
					t->add_int64_data(k->data[j]);
				n = c;
			}
		}
		if (needs_child(gs)) {
			if (int rc = infer_isolated(m, gs, path, err))
				return rc;
		} else {
			infer_shapes(m, onnx::OpSchemaRegistry::Instance());
		}
		for (size_t gi = 0; gi < gs.size(); gi++) {
			ab_onnx_graph *g = &model->graphs[gi];
			free_values(g->infos, g->n_infos);
			g->infos = nullptr;
			g->n_infos = 0;
			size_t n = (size_t)gs[gi]->value_info_size() + (size_t)gs[gi]->output_size();
			g->infos = alloc_array<ab_onnx_value>(n);
			for (int i = 0; i < gs[gi]->value_info_size(); i++)
				fill_info(&g->infos[g->n_infos++], gs[gi]->value_info(i));
			for (int i = 0; i < gs[gi]->output_size(); i++)
				fill_info(&g->infos[g->n_infos++], gs[gi]->output(i));
		}
	} catch (const std::bad_alloc &) {
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	} catch (const too_big &e) {
		return fail(err, -E2BIG, path, e.what_);
	} catch (const std::exception &e) {
		return fail(err, -EBADMSG, path, std::string("ONNX shape inference failed: ") + e.what());
	}
	return 0;
}

void abx_onnx_close(struct abx_onnx *h, struct ab_onnx_model *model)
{
	if (model)
		free_model(model);
	delete h;
}

} // extern "C"
