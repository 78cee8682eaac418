// Package tpchgen writes TPC-H event streams for toastgen's scaling
// benchmarks: the tables of go-tpc's port of dbgen, in the format of
// DBToaster's standard_del data sets (a global sequence number, 1 for an
// insert or 0 for a delete, then the TPC-H columns, '|'-separated), read
// with deletions := 'true'.
//
// The port generates whole scale factors only, so a fraction f of scale
// factor 1 is a key-range slice of it: the customers whose key is at most
// f × 150,000, their orders and those orders' lineitems, the suppliers
// whose key is at most f × 10,000 (a lineitem's supplier key is taken
// modulo their number, so that a supplier has as many lineitems at every
// size, as in dbgen's own scaling), and every nation and region. Orders
// arrive in key order, each with its lineitems; a fraction of them (with
// their lineitems) is deleted again a random number of orders later. Parts
// and part-suppliers are not written (the scaling queries do not read
// them; a lineitem's part key is dbgen's).
package tpchgen

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// Options says what to generate.
type Options struct {
	Fraction   float64 // of scale factor 1, in (0, 1]
	DeleteFrac float64 // of the orders deleted later, with their lineitems
	Seed       uint64  // of the deletes (dbgen's data do not depend on it)
}

// Counts reports the events written per table.
type Counts map[string]int

// Generate writes customer.csv, orders.csv, lineitem.csv, supplier.csv,
// nation.csv and region.csv into dir.
func Generate(dir string, opt Options) (Counts, error) {
	if !(opt.Fraction > 0 && opt.Fraction <= 1) {
		return nil, fmt.Errorf("tpchgen: fraction %v is not in (0, 1]", opt.Fraction)
	}
	w := &writer{counts: Counts{}, rng: rand.New(rand.NewPCG(opt.Seed, 0x7c3)), opt: opt,
		pending: map[int][]*dbgen.Order{}, maxCust: int64(opt.Fraction * 150000), maxSupp: max(1, int64(opt.Fraction*10000))}
	for _, name := range fileNames {
		f, err := os.Create(filepath.Join(dir, name+".csv"))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		w.files = append(w.files, f)
		w.out = append(w.out, bufio.NewWriterSize(f, 1<<20))
	}
	dbgen.InitDbGen(1)
	loaders := map[dbgen.Table]dbgen.Loader{
		dbgen.TNation: loader(w.nation), dbgen.TRegion: loader(w.region),
		dbgen.TSupp: loader(w.supplier), dbgen.TCust: loader(w.customer), dbgen.TOrder: loader(w.order),
	}
	// dbgen reports its progress on standard output: keep it quiet.
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	err := dbgen.DbGen(loaders, []dbgen.Table{dbgen.TNation, dbgen.TRegion, dbgen.TSupp, dbgen.TCust, dbgen.TOrder})
	os.Stdout.Close()
	os.Stdout = stdout
	if err != nil {
		return nil, err
	}
	for at := range w.pending { // deletes scheduled past the last order
		w.flushDeletes(at)
	}
	for i, b := range w.out {
		if err := b.Flush(); err != nil {
			return nil, err
		}
		if err := w.files[i].Close(); err != nil {
			return nil, err
		}
	}
	return w.counts, w.err
}

// loader adapts a function to dbgen.Loader.
type loader func(item any) error

func (l loader) Load(item any) error { return l(item) }
func (l loader) Flush() error        { return nil }

const (
	customerFile = iota
	ordersFile
	lineitemFile
	supplierFile
	nationFile
	regionFile
)

var fileNames = []string{"customer", "orders", "lineitem", "supplier", "nation", "region"}

type writer struct {
	opt     Options
	files   []*os.File
	out     []*bufio.Writer
	counts  Counts
	rng     *rand.Rand
	seq     int64
	orders  int                    // orders written
	pending map[int][]*dbgen.Order // orders to delete once orders reaches the key
	maxCust int64
	maxSupp int64
	err     error
}

func (w *writer) line(file int, insert bool, format string, args ...any) {
	flag := 0
	if insert {
		flag = 1
	}
	if _, err := fmt.Fprintf(w.out[file], "%d|%d|"+format+"\n", append([]any{w.seq, flag}, args...)...); err != nil && w.err == nil {
		w.err = err
	}
	w.counts[fileNames[file]]++
}

func (w *writer) nation(item any) error {
	n := item.(*dbgen.Nation)
	w.line(nationFile, true, "%d|%s|%d|%s", int64(n.Code), n.Text, int64(n.Join), n.Comment)
	return w.err
}

func (w *writer) region(item any) error {
	r := item.(*dbgen.Region)
	w.line(regionFile, true, "%d|%s|%s", int64(r.Code), r.Text, r.Comment)
	return w.err
}

func (w *writer) supplier(item any) error {
	s := item.(*dbgen.Supp)
	if int64(s.SuppKey) > w.maxSupp {
		return nil
	}
	w.seq++
	w.line(supplierFile, true, "%d|%s|%s|%d|%s|%s|%s", int64(s.SuppKey), s.Name, s.Address, int64(s.NationCode), s.Phone, dbgen.FmtMoney(s.Acctbal), s.Comment)
	return w.err
}

func (w *writer) customer(item any) error {
	c := item.(*dbgen.Cust)
	if int64(c.CustKey) > w.maxCust {
		return nil
	}
	w.seq++
	w.line(customerFile, true, "%d|%s|%s|%d|%s|%s|%s|%s", int64(c.CustKey), c.Name, c.Address, int64(c.NationCode), c.Phone, dbgen.FmtMoney(c.Acctbal), c.MktSegment, c.Comment)
	return w.err
}

func (w *writer) order(item any) error {
	o := item.(*dbgen.Order)
	if int64(o.CustKey) > w.maxCust {
		return nil
	}
	w.flushDeletes(w.orders)
	w.seq++
	w.writeOrder(o, true)
	w.orders++
	if w.rng.Float64() < w.opt.DeleteFrac {
		// dbgen reuses nothing it hands out: keep the order to delete it.
		at := w.orders + 1 + w.rng.IntN(1000)
		w.pending[at] = append(w.pending[at], o)
	}
	return w.err
}

func (w *writer) flushDeletes(at int) {
	for _, o := range w.pending[at] {
		w.seq++
		w.writeOrder(o, false)
	}
	delete(w.pending, at)
}

func (w *writer) writeOrder(o *dbgen.Order, insert bool) {
	w.line(ordersFile, insert, "%d|%d|%c|%s|%s|%s|%s|%d|%s", int64(o.OKey), int64(o.CustKey), o.Status,
		dbgen.FmtMoney(o.TotalPrice), o.Date, o.OrderPriority, o.Clerk, o.ShipPriority, o.Comment)
	for _, l := range o.Lines {
		w.line(lineitemFile, insert, "%d|%d|%d|%d|%d|%s|%s|%s|%c|%c|%s|%s|%s|%s|%s|%s", int64(l.OKey), int64(l.PartKey),
			(int64(l.SuppKey)-1)%w.maxSupp+1, int64(l.LCnt), int64(l.Quantity), dbgen.FmtMoney(l.EPrice), dbgen.FmtMoney(l.Discount),
			dbgen.FmtMoney(l.Tax), l.RFlag, l.LStatus, l.SDate, l.CDate, l.RDate, l.ShipInstruct, l.ShipMode, l.Comment)
	}
}
