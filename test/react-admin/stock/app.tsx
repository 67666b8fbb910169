/**
 * react-admin's stock components over budget-rules/react-admin, none given a `sort`: a
 * `<List>` on every resource with an index, a `<ReferenceInput>` of companies in a budget's edit
 * form, and a `<ReferenceManyField>` of the budgets that share a budget's status on its show page.
 * Each asks for react-admin's default sort, by `id`. The API's URL and key come in the page's
 * query (`?api=...&token=...`); test/react-admin/stock.test.ts builds this page and drives it.
 */
import { createRoot } from 'react-dom/client'
import {
  Admin,
  Datagrid,
  Edit,
  List,
  NumberField,
  ReferenceInput,
  ReferenceManyField,
  Resource,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput
} from 'react-admin'
import { reactAdminDataProvider } from '../../../src/react-admin'

const query = new URLSearchParams(window.location.search)
const dataProvider = reactAdminDataProvider({
  url: query.get('api') ?? '',
  token: query.get('token') ?? '',
  companyId: 'c-acme'
})

const TransactionList = () => (
  <List>
    <Datagrid bulkActionButtons={false} rowClick={false}>
      <TextField source="id" />
      <NumberField source="amount" />
      <TextField source="created_at" />
    </Datagrid>
  </List>
)

const BudgetList = () => (
  <List>
    <Datagrid bulkActionButtons={false} rowClick="show">
      <TextField source="id" />
      <TextField source="name" />
      <TextField source="status" />
      <TextField source="created_on" />
    </Datagrid>
  </List>
)

const CompanyList = () => (
  <List>
    <Datagrid bulkActionButtons={false} rowClick={false}>
      <TextField source="id" />
      <TextField source="name" />
    </Datagrid>
  </List>
)

const BudgetShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="name" />
      <ReferenceManyField label="Budgets of the same status" reference="budgets" target="status" source="status">
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <TextField source="id" />
          <TextField source="created_on" />
        </Datagrid>
      </ReferenceManyField>
    </SimpleShowLayout>
  </Show>
)

const BudgetEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="name" />
      <ReferenceInput source="company_id" reference="companies">
        <SelectInput optionText="name" />
      </ReferenceInput>
    </SimpleForm>
  </Edit>
)

createRoot(document.getElementById('root') as HTMLElement).render(
  <Admin dataProvider={dataProvider} disableTelemetry>
    <Resource name="bank_transactions" list={TransactionList} />
    <Resource name="budgets" list={BudgetList} show={BudgetShow} edit={BudgetEdit} />
    <Resource name="companies" list={CompanyList} />
  </Admin>
)
